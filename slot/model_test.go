package slot

import "testing"

// k builds a symbolic key: strings are literals, holes are written h("id").
func k(parts ...any) Key {
	var ks []Key
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			ks = append(ks, Literal(p))
		case Key:
			ks = append(ks, p)
		}
	}
	return Concat(ks...)
}

// testID is the hole identity of these tests' keys.
type testID string

func (testID) SlotHoleID() {}

func h(id string) Key { return HoleKey(testID(id), id) }

func TestConcatNormalises(t *testing.T) {
	a := k("user:", "{", h("id"), "", "}", ":x")
	b := k("user:{", h("id"), "}:x")
	if !a.Equal(b) {
		t.Fatalf("%v and %v should be equal", a, b)
	}
	if got := len(a.Parts()); got != 3 {
		t.Fatalf("parts = %d, want 3 (literal, hole, literal)", got)
	}
	if got, want := a.String(), `"user:{" + id + "}:x"`; got != want {
		t.Errorf("String = %s, want %s", got, want)
	}
	if got, want := a.Format(" .. "), `"user:{" .. id .. "}:x"`; got != want {
		t.Errorf("Format = %s, want %s", got, want)
	}
	if got := Literal("").String(); got != `""` {
		t.Errorf("empty key renders %s", got)
	}
	if s, ok := k("a", "b").Literal(); !ok || s != "ab" {
		t.Errorf("Literal = %q %v", s, ok)
	}
	if k("a", h("x")).Equal(k("a", h("y"))) {
		t.Error("holes with different IDs must differ")
	}
}

func TestAnalyze(t *testing.T) {
	braces := Options{HolesMayContainBraces: true}
	tests := []struct {
		name string
		key  Key
		opts Options
		kind TagKind
		tag  string // Tag.String() for literal/symbolic tags
		// expected flags
		empty, ignored, unclosed, holeBefore, holeOutside bool
	}{
		{name: "no braces literal", key: k("user:1"), kind: TagNone},
		{name: "no braces with hole", key: k("user:", h("id")), kind: TagNone},
		{name: "literal tag", key: k("{user}:1"), kind: TagLiteral, tag: `"user"`},
		{name: "tag split across literal and hole", key: k("x:{", h("id"), "}"), kind: TagSymbolic, tag: `id`},
		{name: "tag of hole and literals", key: k("x:{a", h("id"), "b}:y"), kind: TagSymbolic, tag: `"a" + id + "b"`},
		{name: "constant tag on variable family", key: k("{jobs}:", h("id")), kind: TagLiteral, tag: `"jobs"`, holeOutside: true},
		{name: "hole before first brace", key: k(h("p"), ":{id}"), kind: TagLiteral, tag: `"id"`, holeBefore: true, holeOutside: true},
		{name: "hole before first brace, braces possible", key: k(h("p"), ":{id}"), opts: braces, kind: TagUnknown, holeBefore: true},
		{name: "hole inside tag, braces possible", key: k("x:{", h("id"), "}"), opts: braces, kind: TagUnknown},
		{name: "holes after tag, braces possible", key: k("{x}:", h("id")), opts: braces, kind: TagLiteral, tag: `"x"`, holeOutside: true},
		{name: "no brace but hole, braces possible", key: k("user:", h("id")), opts: braces, kind: TagUnknown},
		{name: "empty tag", key: k("foo{}{bar}"), kind: TagNone, empty: true, ignored: true},
		{name: "empty tag alone", key: k("foo{}:", h("id")), kind: TagNone, empty: true},
		{name: "nested braces", key: k("foo{{bar}}zap"), kind: TagLiteral, tag: `"{bar"`},
		{name: "second tag ignored", key: k("{a}:{b}"), kind: TagLiteral, tag: `"a"`, ignored: true},
		{name: "second tag ignored around hole", key: k("{a}:{", h("id"), "}"), kind: TagLiteral, tag: `"a"`, ignored: true, holeOutside: true},
		{name: "unclosed literal", key: k("user:{1"), kind: TagNone, unclosed: true},
		{name: "unclosed with hole", key: k("user:{", h("id")), kind: TagNone, unclosed: true},
		{name: "unclosed with hole, braces possible", key: k("user:{", h("id")), opts: braces, kind: TagUnknown, unclosed: true},
		{name: "close before open", key: k("}", h("id"), "{"), kind: TagNone, unclosed: true, holeBefore: true},
		{name: "empty key", key: Key{}, kind: TagNone},
		{name: "braces only around empty hole-free text then hole", key: k("{", "}", h("x")), kind: TagNone, empty: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Analyze(tt.key, tt.opts)
			if a.Kind != tt.kind {
				t.Fatalf("%v: kind = %v, want %v", tt.key, a.Kind, tt.kind)
			}
			if (tt.kind == TagLiteral || tt.kind == TagSymbolic) && a.Tag.String() != tt.tag {
				t.Errorf("%v: tag = %s, want %s", tt.key, a.Tag, tt.tag)
			}
			if tt.kind == TagNone && !a.Hashed.Equal(tt.key) {
				t.Errorf("%v: hashed = %v, want the whole key", tt.key, a.Hashed)
			}
			got := [5]bool{a.EmptyTag, a.IgnoredTag, a.Unclosed, a.HoleBeforeTag, a.HoleOutsideTag}
			want := [5]bool{tt.empty, tt.ignored, tt.unclosed, tt.holeBefore, tt.holeOutside}
			if got != want {
				t.Errorf("%v: flags empty,ignored,unclosed,holeBefore,holeOutside = %v, want %v", tt.key, got, want)
			}
		})
	}
}

func TestRelate(t *testing.T) {
	braces := Options{HolesMayContainBraces: true}
	tests := []struct {
		name string
		a, b Key
		opts Options
		want RelationKind
	}{
		{"same literal tag", k("{u1}:a"), k("{u1}:b"), Options{}, SameSlot},
		{"literal keys in one slot via tag and whole key", k("a{x}b"), k("x"), Options{}, SameSlot},
		{"literal keys in different slots", k("user:1"), k("user:2"), Options{}, DifferentSlots},
		{"same hole tag", k("user:{", h("id"), "}:a"), k("cart:{", h("id"), "}"), Options{}, SameSlot},
		{"same hole tag, braces possible", k("user:{", h("id"), "}:a"), k("cart:{", h("id"), "}"), braces, Unknown},
		{"different holes", k("{", h("a"), "}"), k("{", h("b"), "}"), Options{}, Unknown},
		{"untagged holes", k("user:", h("id")), k("cart:", h("id")), Options{}, Unknown},
		{"identical untagged keys", k("user:", h("id")), k("user:", h("id")), Options{}, SameSlot},
		{"hole tag vs literal tag", k("{", h("id"), "}"), k("{7}"), Options{}, Unknown},
		{"empty tag hashes whole key", k("a{}x"), k("b{}x"), Options{}, DifferentSlots},
		{"unclosed is whole key", k("a{x"), k("b{x"), Options{}, DifferentSlots},
		{"constant tag family", k("{jobs}:", h("a")), k("{jobs}:", h("b")), Options{}, SameSlot},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Relate(tt.a, tt.b, tt.opts)
			if r.Kind != tt.want {
				t.Fatalf("Relate(%v, %v) = %v, want %v", tt.a, tt.b, r.Kind, tt.want)
			}
			if r.Kind == DifferentSlots && (!r.KnownA || !r.KnownB || r.SlotA == r.SlotB) {
				t.Errorf("different slots must carry both slots: %+v", r)
			}
			if r.KnownA {
				if s, ok := tt.a.Literal(); ok && r.SlotA != Slot(s) {
					t.Errorf("SlotA = %d, want %d", r.SlotA, Slot(s))
				}
			}
		})
	}
}

func TestRelateAll(t *testing.T) {
	id := h("id")
	if g := RelateAll([]Key{k("{", id, "}a"), k("{", id, "}b"), k("{", id, "}c")}, Options{}); g.Kind != SameSlot {
		t.Errorf("all tagged by id: %v", g.Kind)
	}
	// The pair in different slots need not involve the first key.
	g := RelateAll([]Key{k("x:", id), k("user:1"), k("user:2")}, Options{})
	if g.Kind != DifferentSlots || g.I != 1 || g.J != 2 {
		t.Errorf("got %v (%d,%d), want different slots (1,2)", g.Kind, g.I, g.J)
	}
	g = RelateAll([]Key{k("{", id, "}a"), k("{", id, "}b"), k("other")}, Options{})
	if g.Kind != Unknown || g.J != 2 {
		t.Errorf("got %v (%d,%d), want unknown at key 2", g.Kind, g.I, g.J)
	}
	if g := RelateAll([]Key{k("a")}, Options{}); g.Kind != SameSlot {
		t.Errorf("one key: %v", g.Kind)
	}
}

func TestSubstituteAndShape(t *testing.T) {
	lua := k(HoleKey(testID("KEYS[1]"), "KEYS[1]"), ":lock")
	bound := lua.Substitute(func(h Hole) (Key, bool) {
		if h.ID == testID("KEYS[1]") {
			return k("order:{", HoleKey(testID("go:id"), "id"), "}"), true
		}
		return Key{}, false
	})
	if got, want := bound.String(), `"order:{" + id + "}:lock"`; got != want {
		t.Fatalf("bound = %s, want %s", got, want)
	}
	if a := Analyze(bound, Options{}); a.Kind != TagSymbolic {
		t.Errorf("bound key tag kind = %v", a.Kind)
	}
	if Relate(bound, k("order:{", HoleKey(testID("go:id"), "id"), "}"), Options{}).Kind != SameSlot {
		t.Error("a key derived from a tagged KEYS[1] shares its slot")
	}
	if a, b := k("user:{", h("id"), "}:cart").Shape(), k("user:", h("id"), ":cart").Shape(); a != b || a != "user:*:cart" {
		t.Errorf("shapes %q %q", a, b)
	}
	if SlotOfOK(k("{a}", h("x"))) != Slot("a") {
		t.Error("slot of a literal-tag key with holes outside is the tag's slot")
	}
	if _, ok := SlotOf(k("a", h("x")), Options{}); ok {
		t.Error("slot of an untagged key with a hole is unknown")
	}
}

func SlotOfOK(key Key) int {
	s, _ := SlotOf(key, Options{})
	return s
}

func FuzzAnalyze(f *testing.F) {
	f.Add("user:{", "}:x", true)
	f.Add("{a}", "", false)
	f.Add("a{}{", "}", true)
	f.Fuzz(func(t *testing.T, pre, post string, braces bool) {
		// With the hole filled by brace-free text, the model's verdict must
		// match the string rule on the concrete key.
		key := k(pre, h("x"), post)
		a := Analyze(key, Options{HolesMayContainBraces: braces})
		for _, fill := range []string{"7", "abc"} {
			concrete := pre + fill + post
			bound := key.Substitute(func(Hole) (Key, bool) { return Literal(fill), true })
			tag, ok := Tag(concrete)
			switch a.Kind {
			case TagNone:
				if ok {
					t.Fatalf("%v: model says no tag, %q has tag %q", key, concrete, tag)
				}
			case TagLiteral, TagSymbolic:
				got := a.Tag.Substitute(func(Hole) (Key, bool) { return Literal(fill), true })
				if s, _ := got.Literal(); !ok || s != tag {
					t.Fatalf("%v: model tag %v (%q), concrete %q tag %q %v", key, a.Tag, s, concrete, tag, ok)
				}
			}
			if s, ok := bound.Literal(); !ok || s != concrete {
				t.Fatalf("substitution gave %v", bound)
			}
		}
	})
}

func TestSoleHole(t *testing.T) {
	for _, c := range []struct {
		k    Key
		want string // the hole's ID, "" when the key is not one hole
	}{
		{h("id"), "id"},
		{k(h("id")), "id"},
		{k(h("a"), h("b")), ""},
		{k("user:", h("id")), ""},
		{k(h("id"), ""), "id"},
		{k("user:1"), ""},
		{Key{}, ""},
	} {
		got, ok := c.k.SoleHole()
		if ok != (c.want != "") || ok && got.ID != testID(c.want) {
			t.Errorf("%s.SoleHole() = %v, %v; want %q", c.k, got, ok, c.want)
		}
	}
}

func TestOnlyHoles(t *testing.T) {
	for _, c := range []struct {
		k    Key
		want bool
	}{
		{h("id"), true},
		{k(h("a"), h("b")), true},
		{k(h("a"), "", h("b")), true},
		{k("user:", h("id")), false},
		{k(h("id"), ":x"), false},
		{k("user:1"), false},
		{Key{}, false},
	} {
		if got := c.k.OnlyHoles(); got != c.want {
			t.Errorf("%s.OnlyHoles() = %v, want %v", c.k, got, c.want)
		}
	}
}
