package keyexpr

import (
	"go/token"
	"go/types"
	"testing"

	"github.com/slotlint/slotlint/slot"
)

// luaID stands for a hole ID another package built (a Lua key's KEYS[1]).
type luaID string

func (luaID) SlotHoleID() {}

func hole(id slot.HoleID) slot.Hole { return slot.Hole{ID: id, Label: "l"} }

func TestHoleIDQueries(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	global := types.NewVar(token.Pos(5), pkg, "prefix", types.Typ[types.String])
	pkg.Scope().Insert(global)
	local := types.NewVar(token.Pos(40), pkg, "id", types.Typ[types.Int])
	g, v, foreign := varID(global), varID(local), luaID("KEYS[1]")

	if !IsGlobal(hole(g)) || IsGlobal(hole(v)) || IsGlobal(hole(foreign)) {
		t.Errorf("IsGlobal: only the package-level variable is global")
	}
	if _, ok := AtCall(hole(g), 100); ok {
		t.Errorf("AtCall renamed a package-level variable")
	}
	if _, ok := AtCall(hole(foreign), 100); ok {
		t.Errorf("AtCall renamed a hole keyexpr did not build")
	}
	a, _ := AtCall(hole(v), 100)
	a2, _ := AtCall(hole(v), 100)
	b, _ := AtCall(hole(v), 200)
	if !a.Equal(a2) || a.Equal(b) || a.Equal(slot.HoleKey(v, "id")) {
		t.Errorf("AtCall: one call gives one value, two calls two, none the helper's own")
	}
	dec := printedID("dec", v)
	if !Prints(dec, v) || Prints(v, v) || Prints(dec, g) || Prints(foreign, v) {
		t.Errorf("Prints: only dec(id) prints id")
	}
	for id, want := range map[slot.HoleID]bool{
		dec:                             true,
		printedID("s", v):               false,
		safeUniqueID(7):                 true,
		safeCallID("Itoa", v):           true,
		uniqueID(7):                     false,
		v:                               false,
		foreign:                         false,
		opaqueID(0, true):               true,
		opaqueID(0, false):              false,
		printedID("x", fieldID(v, "n")): true,
	} {
		if got := BraceFree(hole(id)); got != want {
			t.Errorf("BraceFree(%v) = %v, want %v", id, got, want)
		}
	}
}

// TestHoleIDFactParts checks that what a fact carries reads back as the
// same hole, and that a value derived from a parameter has no part.
func TestHoleIDFactParts(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	global := types.NewVar(token.Pos(5), pkg, "prefix", types.Typ[types.String])
	pkg.Scope().Insert(global)
	for _, id := range []HoleID{varID(global), recvID, fieldID(recvID, "name"), printedID("dec", fieldID(recvID, "n"))} {
		part, ok := id.factPart("l")
		if !ok {
			t.Fatalf("%v has no fact part", id)
		}
		k := (&KeyFunc{Parts: []FactPart{part}}).key(nil)
		if !k.Equal(slot.HoleKey(id, "l")) {
			t.Errorf("%v reads back as %v", id, k.Holes())
		}
	}
	if part, ok := paramID(2).factPart("l"); !ok || part.Param != 2 {
		t.Errorf("param:2 is part %+v, %v", part, ok)
	}
	if part, ok := printedID("dec", paramID(1)).factPart("l"); !ok || part.Param != 1 || part.Format != "dec" {
		t.Errorf("dec(param:1) is part %+v, %v", part, ok)
	}
	for _, id := range []HoleID{fieldID(paramID(0), "f"), atCall(paramID(0), 9)} {
		if _, ok := id.factPart("l"); ok {
			t.Errorf("%v, derived from a parameter, has a fact part", id)
		}
	}
	if part, ok := uniqueID(3).factPart("l"); !ok || !part.Opaque || part.Safe {
		t.Errorf("a unique value is part %+v, %v; want opaque", part, ok)
	}
}
