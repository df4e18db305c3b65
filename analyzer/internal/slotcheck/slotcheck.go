// Package slotcheck relates the keys that must share one slot (a command's,
// a transaction's, a script call's) and words the finding, so every rule
// family says the same thing the same way.
package slotcheck

import (
	"fmt"

	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/slot"
)

// Key is one key taking part in a check.
type Key struct {
	keyexpr.Elem
	// Again marks the copy of a key added in a loop, as a later iteration
	// sees it.
	Again bool
}

// Expand lists elems, adding for each key added in a loop a copy as the
// next iteration sees it: a loop that adds "user:"+id adds keys of
// different ids.
func Expand(x *keyexpr.Extractor, elems []keyexpr.Elem) []Key {
	var out []Key
	for _, e := range elems {
		out = append(out, Key{Elem: e})
		if e.Loop != nil {
			again := e
			again.Key = x.Vary(e.Key, e.Loop)
			if !again.Key.Equal(e.Key) {
				out = append(out, Key{Elem: again, Again: true})
			}
		}
	}
	return out
}

// Outcome of relating a group of keys.
type Outcome struct {
	Kind slot.RelationKind
	A, B Key
	// Message words the finding for the named command ("MGET",
	// "TxPipelined transaction").
	Message string
}

// Relate checks that keys share one slot.
func Relate(what string, keys []Key, opts slot.Options) Outcome {
	ks := make([]slot.Key, len(keys))
	for i, k := range keys {
		ks[i] = k.Key
	}
	g := slot.RelateAll(ks, opts)
	if g.Kind == slot.SameSlot {
		return Outcome{Kind: slot.SameSlot}
	}
	o := Outcome{Kind: g.Kind, A: keys[g.I], B: keys[g.J]}
	if g.Kind == slot.DifferentSlots {
		o.Message = fmt.Sprintf("%s keys %s and %s are in different slots", what, Describe(o.A, opts), Describe(o.B, opts))
	} else {
		o.Message = fmt.Sprintf("%s keys %s and %s share no hash tag (CROSSSLOT risk on a cluster)", what, Describe(o.A, opts), Describe(o.B, opts))
	}
	return o
}

// Describe names a key for a message: its Go spelling, and its slot when
// known.
func Describe(k Key, opts slot.Options) string {
	s := k.Key.String()
	if n, ok := slot.SlotOf(k.Key, opts); ok {
		s += fmt.Sprintf(" (slot %d)", n)
	}
	if k.Again {
		s += " of another loop iteration"
	}
	return s
}
