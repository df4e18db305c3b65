package keyexpr

import (
	"strings"

	"github.com/slotlint/slotlint/slot"
)

// KeyFunc is the fact recorded for a key-builder function: the key it
// returns in terms of its parameters and package-level variables.
type KeyFunc struct {
	Parts []FactPart
}

// FactPart is one piece of a builder's key: literal text, parameter Param
// (0-based; the receiver is not a parameter), or the package-level
// variable Global.
type FactPart struct {
	Lit    string
	Param  int // -1 unless the part is a parameter
	Global string
	// Format is set when the part is a non-string parameter as printed:
	// "dec" for decimal, else the fmt verb.
	Format string
	// Opaque is a value the builder computes itself (a call result, a
	// local): a different value at every call.
	Opaque bool
	// Safe: the opaque value's text never holds a brace.
	Safe  bool
	Label string
	// Recv is the hole of a value the receiver holds ("recv.f",
	// "dec(recv.f)"), bound to the receiver at each call.
	Recv string
}

// AFact marks KeyFunc as an analysis fact.
func (*KeyFunc) AFact() {}

func (f *KeyFunc) String() string { return "keyfunc(" + f.key(nil).String() + ")" }

// key rebuilds the key, binding parameter i to args[i] when given.
func (f *KeyFunc) key(args []slot.Key) slot.Key {
	var ks []slot.Key
	for i, p := range f.Parts {
		switch {
		case p.Recv != "":
			ks = append(ks, slot.HoleKey(factID(p.Recv), p.Label))
		case p.Opaque:
			ks = append(ks, slot.HoleKey(opaqueID(i, p.Safe), p.Label))
		case p.Param >= 0 && p.Format != "":
			ks = append(ks, slot.HoleKey(printedID(p.Format, paramID(p.Param)), p.Label))
		case p.Param >= 0 && p.Param < len(args):
			ks = append(ks, args[p.Param])
		case p.Param >= 0:
			ks = append(ks, slot.HoleKey(paramID(p.Param), p.Label))
		case p.Global != "":
			ks = append(ks, slot.HoleKey(factID(p.Global), p.Label))
		default:
			ks = append(ks, slot.Literal(p.Lit))
		}
	}
	return slot.Concat(ks...)
}

// factOf converts a summary to a fact: literals, parameters and
// package-level variables keep their identity; any other value becomes
// opaque, a new value at each call.
func factOf(k slot.Key) (*KeyFunc, bool) {
	f := &KeyFunc{}
	for _, p := range k.Parts() {
		if p.Hole == nil {
			f.Parts = append(f.Parts, FactPart{Lit: p.Lit, Param: -1})
			continue
		}
		id, ok := idOf(*p.Hole)
		if !ok {
			return nil, false
		}
		part, ok := id.factPart(p.Hole.Label)
		if !ok {
			return nil, false
		}
		f.Parts = append(f.Parts, part)
	}
	return f, true
}

// FieldKey is the fact recorded for an unexported string field that its
// package sets from one expression: the key in terms of the struct value
// holding it (receiver parts).
type FieldKey struct {
	Parts []FactPart
}

// AFact marks FieldKey as an analysis fact.
func (*FieldKey) AFact() {}

func (f *FieldKey) String() string {
	return "fieldkey(" + (&KeyFunc{Parts: f.Parts}).key(nil).String() + ")"
}

// KeyFields is the fact recorded for a function returning a struct built
// by a composite literal: the key each string field holds.
type KeyFields struct {
	Fields []NamedKey
}

// NamedKey is one field's key.
type NamedKey struct {
	Name  string
	Parts []FactPart
}

// AFact marks KeyFields as an analysis fact.
func (*KeyFields) AFact() {}

func (f *KeyFields) String() string {
	var b strings.Builder
	b.WriteString("keyfields(")
	for i, n := range f.Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n.Name + ": " + (&KeyFunc{Parts: n.Parts}).key(nil).String())
	}
	b.WriteString(")")
	return b.String()
}

func (f *KeyFields) keys() map[string]slot.Key {
	out := map[string]slot.Key{}
	for _, n := range f.Fields {
		out[n.Name] = (&KeyFunc{Parts: n.Parts}).key(nil)
	}
	return out
}
