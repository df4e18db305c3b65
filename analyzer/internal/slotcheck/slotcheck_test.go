package slotcheck

import (
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/slot"
)

// testID is the hole identity of these tests' keys.
type testID string

func (testID) SlotHoleID() {}

func keys(ks ...slot.Key) []Key {
	var out []Key
	for _, k := range ks {
		out = append(out, Key{Elem: keyexpr.Elem{Key: k}})
	}
	return out
}

func TestRelate(t *testing.T) {
	id := slot.HoleKey(testID("id"), "id")
	src := slot.HoleKey(testID("src"), "src")
	lit := slot.Literal
	tests := []struct {
		name   string
		keys   []Key
		kind   slot.RelationKind
		opaque bool
		msg    string
	}{
		{"literal tags", keys(lit("{a}1"), lit("{a}2")), slot.SameSlot, false, ""},
		{"literal slots differ", keys(lit("user:1"), lit("user:2")), slot.DifferentSlots, false,
			`MGET keys "user:1" (slot 10778) and "user:2" (slot 6777) are in different slots`},
		{"no shared tag", keys(slot.Concat(lit("a:"), id), slot.Concat(lit("b:"), id)), slot.Unknown, false,
			`MGET keys "a:" + id and "b:" + id share no hash tag (CROSSSLOT risk on a cluster)`},
		{"same symbolic tag", keys(slot.Concat(lit("a:{"), id, lit("}")), slot.Concat(lit("{"), id, lit("}:b"))), slot.SameSlot, false, ""},
		{"only whole-value keys in doubt", keys(src, slot.Concat(lit("a:{"), id, lit("}"))), slot.Unknown, true, ""},
		{"whole-value key beside a real doubt", keys(src, slot.Concat(lit("a:"), id), slot.Concat(lit("b:"), id)), slot.Unknown, false,
			`MGET keys "a:" + id and "b:" + id share no hash tag`},
		{"whole-value key beside provably different slots", keys(src, lit("user:1"), lit("user:2")), slot.DifferentSlots, false,
			`are in different slots`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Relate("MGET", tt.keys, slot.Options{})
			if o.Kind != tt.kind || o.Opaque != tt.opaque || !strings.Contains(o.Message, tt.msg) {
				t.Errorf("Relate = %v opaque=%v %q, want %v opaque=%v %q", o.Kind, o.Opaque, o.Message, tt.kind, tt.opaque, tt.msg)
			}
		})
	}
}
