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
	// Opaque: the only keys not proven to share the slot are unknown values
	// as a whole.
	Opaque bool
}

func relateAll(keys []Key, opts slot.Options) slot.GroupRelation {
	ks := make([]slot.Key, len(keys))
	for i, k := range keys {
		ks[i] = k.Key
	}
	return slot.RelateAll(ks, opts)
}

// opaque reports whether a key is one unknown value as a whole. A key
// joined from several values (p.prefix + id) is built here: under the
// brace-free assumption it has no tag, and two such keys of different ids
// are a CROSSSLOT risk like "user:" + id.
func opaque(k slot.Key) bool {
	_, ok := k.SoleHole()
	return ok
}

// Relate checks that keys share one slot.
//
// A key that is nothing but an unknown value (a key passed in whole as a
// parameter, a call result) says nothing about key design here: whoever
// built it decides its slot. Such keys alone never make the relation
// unknown; when they are the only doubt, the Outcome is Opaque and callers
// treat the keys as unresolved (SL1005) rather than as sharing no tag.
func Relate(what string, keys []Key, opts slot.Options) Outcome {
	g := relateAll(keys, opts)
	if g.Kind == slot.SameSlot {
		return Outcome{Kind: slot.SameSlot}
	}
	if g.Kind == slot.Unknown {
		var known []Key
		for _, k := range keys {
			if !opaque(k.Key) {
				known = append(known, k)
			}
		}
		if len(known) < len(keys) {
			keys = known
			if g = relateAll(keys, opts); g.Kind == slot.SameSlot {
				return Outcome{Kind: slot.Unknown, Opaque: true}
			}
		}
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
