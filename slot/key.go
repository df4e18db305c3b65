package slot

import (
	"strconv"
	"strings"
)

// HoleID identifies the value a hole stands for: two holes with equal IDs
// hold the same text at run time (the same parameter, variable, KEYS slot
// or call result). Holes with different IDs may hold anything.
//
// slot only compares IDs. The package that builds a key owns the type of
// its holes' IDs (keyexpr for Go expressions, luacheck for Lua values) and
// answers any other question about them; everyone else may only compare.
// An implementation must be a comparable type.
type HoleID interface {
	// SlotHoleID marks a type as a hole identity; it does nothing.
	SlotHoleID()
}

// Hole stands for a part of a key whose text is not known statically.
type Hole struct {
	// ID identifies the value the hole stands for.
	ID HoleID
	// Label names the value for people: "id", "ARGV[1]", "strconv.Itoa(n)".
	Label string
}

// Part is one piece of a symbolic key: literal text, or a hole when Hole is
// not nil.
type Part struct {
	Lit  string
	Hole *Hole
}

// Key is a key as a sequence of literal parts and holes. Adjacent literals
// are always merged and empty literals dropped, so two keys built the same
// way have equal parts. The zero Key is the empty literal key.
type Key struct {
	parts []Part
}

// Literal returns the key with the fixed text s.
func Literal(s string) Key {
	if s == "" {
		return Key{}
	}
	return Key{parts: []Part{{Lit: s}}}
}

// HoleKey returns a key made of a single hole.
func HoleKey(id HoleID, label string) Key {
	return Key{parts: []Part{{Hole: &Hole{ID: id, Label: label}}}}
}

// Concat joins keys in order.
func Concat(keys ...Key) Key {
	var out []Part
	for _, k := range keys {
		for _, p := range k.parts {
			out = appendPart(out, p)
		}
	}
	return Key{parts: out}
}

func appendPart(parts []Part, p Part) []Part {
	if p.Hole == nil {
		if p.Lit == "" {
			return parts
		}
		if n := len(parts); n > 0 && parts[n-1].Hole == nil {
			parts[n-1].Lit += p.Lit
			return parts
		}
	}
	return append(parts, p)
}

// Parts returns the key's parts. Callers must not modify them.
func (k Key) Parts() []Part { return k.parts }

// Literal returns the key's text when it has no holes.
func (k Key) Literal() (string, bool) {
	switch len(k.parts) {
	case 0:
		return "", true
	case 1:
		if k.parts[0].Hole == nil {
			return k.parts[0].Lit, true
		}
	}
	return "", false
}

// SoleHole returns the key's hole when the key is that hole alone, with no
// literal text: a value of unknown text as a whole.
func (k Key) SoleHole() (Hole, bool) {
	if len(k.parts) == 1 && k.parts[0].Hole != nil {
		return *k.parts[0].Hole, true
	}
	return Hole{}, false
}

// OnlyHoles reports whether the key is made of holes alone, one or more,
// with no literal text: unknown text as a whole.
func (k Key) OnlyHoles() bool {
	for _, p := range k.parts {
		if p.Hole == nil {
			return false
		}
	}
	return len(k.parts) > 0
}

// HasHoles reports whether some part of the key is unknown.
func (k Key) HasHoles() bool {
	for _, p := range k.parts {
		if p.Hole != nil {
			return true
		}
	}
	return false
}

// Holes returns the key's holes in order.
func (k Key) Holes() []Hole {
	var hs []Hole
	for _, p := range k.parts {
		if p.Hole != nil {
			hs = append(hs, *p.Hole)
		}
	}
	return hs
}

// Equal reports whether two keys are built from the same literals and the
// same holes in the same order; equal keys are the same key at run time.
func (k Key) Equal(o Key) bool {
	if len(k.parts) != len(o.parts) {
		return false
	}
	for i, p := range k.parts {
		q := o.parts[i]
		if (p.Hole == nil) != (q.Hole == nil) {
			return false
		}
		if p.Hole != nil {
			if p.Hole.ID != q.Hole.ID {
				return false
			}
		} else if p.Lit != q.Lit {
			return false
		}
	}
	return true
}

// Substitute replaces each hole for which bind returns true with the key it
// returns. The Go and Lua checkers meet here: a Lua key KEYS[1] .. ":x"
// becomes the Go key passed as KEYS[1] followed by ":x".
func (k Key) Substitute(bind func(Hole) (Key, bool)) Key {
	var out []Part
	for _, p := range k.parts {
		if p.Hole != nil {
			if r, ok := bind(*p.Hole); ok {
				for _, q := range r.parts {
					out = appendPart(out, q)
				}
				continue
			}
		}
		out = appendPart(out, p)
	}
	return Key{parts: out}
}

// String renders the key as a Go concatenation: "user:{" + id + "}".
func (k Key) String() string { return k.Format(" + ") }

// Format renders the key with literals quoted and holes by label, joined by
// sep (" + " for Go, " .. " for Lua). A key built by reassigning itself
// (key = prefix + key in a loop) has its prefix once per step: a unit of
// one or two parts repeated three times or more is shown once followed by
// "…", and a key of more than maxShownParts parts shows its first and last
// parts around "…", so a message stays readable and still shows the shape.
func (k Key) Format(sep string) string {
	if len(k.parts) == 0 {
		return `""`
	}
	shown := make([]string, 0, len(k.parts))
	for _, p := range k.parts {
		if p.Hole != nil {
			shown = append(shown, p.Hole.Label)
		} else {
			shown = append(shown, strconv.Quote(p.Lit))
		}
	}
	shown = collapseRepeats(shown)
	if len(shown) > maxShownParts {
		head, tail := shown[:maxShownParts/2], shown[len(shown)-maxShownParts/2+1:]
		shown = append(append(append([]string{}, head...), ellipsis), tail...)
	}
	return strings.Join(shown, sep)
}

// maxShownParts caps the parts a rendered key shows.
const maxShownParts = 12

const ellipsis = "…"

// collapseRepeats replaces each run of three or more copies of a unit of
// one or two parts by one copy and an ellipsis.
func collapseRepeats(parts []string) []string {
	out := make([]string, 0, len(parts))
	for i := 0; i < len(parts); {
		collapsed := false
		for unit := 1; unit <= 2 && !collapsed; unit++ {
			n := 1
			for i+(n+1)*unit <= len(parts) && equalRun(parts[i:i+unit], parts[i+n*unit:i+(n+1)*unit]) {
				n++
			}
			if n >= 3 {
				out = append(append(out, parts[i:i+unit]...), ellipsis)
				i += n * unit
				collapsed = true
			}
		}
		if !collapsed {
			out = append(out, parts[i])
			i++
		}
	}
	return out
}

func equalRun(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Shape names the key's family: its literal text without braces, each hole
// written as '*'. "user:{" + id + "}:cart" and "user:" + id + ":cart" share
// the shape "user:*:cart", which is how a family used with and without a tag
// is recognised.
func (k Key) Shape() string {
	var b strings.Builder
	for _, p := range k.parts {
		if p.Hole != nil {
			b.WriteByte('*')
			continue
		}
		for i := 0; i < len(p.Lit); i++ {
			if c := p.Lit[i]; c != '{' && c != '}' {
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}
