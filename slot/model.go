package slot

import "strings"

// Options tune how holes are treated.
type Options struct {
	// HolesMayContainBraces treats a hole as arbitrary text. By default a hole
	// is assumed to hold no '{' or '}', which is true of ids, numbers and
	// names in practice and lets the checkers place the tag exactly.
	HolesMayContainBraces bool
}

// TagKind says what is known about a symbolic key's hash tag.
type TagKind uint8

const (
	// TagNone: the key provably has no tag and Redis hashes the whole key.
	TagNone TagKind = iota
	// TagLiteral: the tag is known text.
	TagLiteral
	// TagSymbolic: the tag is known to be an expression over holes.
	TagSymbolic
	// TagUnknown: a hole may hold a brace, so where the tag is cannot be told.
	TagUnknown
)

func (k TagKind) String() string {
	switch k {
	case TagNone:
		return "no tag"
	case TagLiteral:
		return "literal tag"
	case TagSymbolic:
		return "symbolic tag"
	default:
		return "unknown tag"
	}
}

// Analysis is what the key model knows about one key's hashing.
type Analysis struct {
	Kind TagKind
	// Tag is the tag for TagLiteral and TagSymbolic.
	Tag Key
	// Hashed is what Redis hashes: the tag, or the whole key for TagNone.
	// It is meaningless for TagUnknown.
	Hashed Key

	// EmptyTag: the first '{' is followed at once by '}', so Redis ignores the
	// braces and hashes the whole key.
	EmptyTag bool
	// IgnoredTag: a "{...}" pair after the first tag (or after an empty one)
	// that Redis never looks at.
	IgnoredTag bool
	// Unclosed: the first '{' has no '}' after it, so there is no tag.
	Unclosed bool
	// HoleBeforeTag: a hole comes before the first '{'; should it ever hold a
	// brace, the tag moves.
	HoleBeforeTag bool
	// HoleOutsideTag: the key has a tag and holes outside it, so a whole
	// family of keys shares the tag's single slot.
	HoleOutsideTag bool
}

// position of a byte within a key's parts.
type pos struct{ part, off int }

// Analyze finds the key's hash tag with Redis's rule (first '{', first '}'
// after it, non-empty) over literal parts and holes.
func Analyze(k Key, opts Options) Analysis {
	parts := k.parts
	var a Analysis

	open, sawHole := findByte(parts, pos{}, '{')
	a.HoleBeforeTag = sawHole && open.part >= 0
	if open.part < 0 {
		if opts.HolesMayContainBraces && sawHole {
			a.Kind = TagUnknown
			return a
		}
		a.Kind, a.Hashed = TagNone, k
		return a
	}
	if opts.HolesMayContainBraces && sawHole {
		a.Kind = TagUnknown
		return a
	}

	closePos, holeInside := findByte(parts, next(parts, open), '}')
	if closePos.part < 0 {
		a.Unclosed = true
		if opts.HolesMayContainBraces && holeInside {
			a.Kind = TagUnknown
			return a
		}
		a.Kind, a.Hashed = TagNone, k
		return a
	}
	if opts.HolesMayContainBraces && holeInside {
		a.Kind = TagUnknown
		return a
	}

	tag := slice(parts, next(parts, open), closePos)
	after := next(parts, closePos)
	if len(tag.parts) == 0 {
		a.EmptyTag = true
		a.IgnoredTag = hasPair(parts, after)
		a.Kind, a.Hashed = TagNone, k
		return a
	}
	a.IgnoredTag = hasPair(parts, after)
	a.Tag, a.Hashed = tag, tag
	if tag.HasHoles() {
		a.Kind = TagSymbolic
	} else {
		a.Kind = TagLiteral
	}
	a.HoleOutsideTag = sawHole || slice(parts, after, pos{len(parts), 0}).HasHoles()
	return a
}

// findByte returns the first position at or after from whose literal byte is
// c, or part -1, and whether a hole was passed on the way.
func findByte(parts []Part, from pos, c byte) (pos, bool) {
	sawHole := false
	for i := from.part; i < len(parts); i++ {
		p := parts[i]
		if p.Hole != nil {
			sawHole = true
			continue
		}
		start := 0
		if i == from.part {
			start = from.off
		}
		if j := strings.IndexByte(p.Lit[start:], c); j >= 0 {
			return pos{i, start + j}, sawHole
		}
	}
	return pos{-1, 0}, sawHole
}

// next returns the position just after the literal byte at p.
func next(parts []Part, p pos) pos {
	if p.off+1 < len(parts[p.part].Lit) {
		return pos{p.part, p.off + 1}
	}
	return pos{p.part + 1, 0}
}

// slice returns the key made of the bytes and holes from from (inclusive) to
// to (exclusive).
func slice(parts []Part, from, to pos) Key {
	var out []Part
	for i := from.part; i < len(parts) && i <= to.part; i++ {
		p := parts[i]
		if p.Hole != nil {
			if i < to.part {
				out = appendPart(out, p)
			}
			continue
		}
		lo, hi := 0, len(p.Lit)
		if i == from.part {
			lo = from.off
		}
		if i == to.part {
			hi = to.off
		}
		if lo < hi {
			out = appendPart(out, Part{Lit: p.Lit[lo:hi]})
		}
	}
	return Key{parts: out}
}

// hasPair reports whether a '{' with a later '}' follows from.
func hasPair(parts []Part, from pos) bool {
	open, _ := findByte(parts, from, '{')
	if open.part < 0 {
		return false
	}
	c, _ := findByte(parts, next(parts, open), '}')
	return c.part >= 0
}

// SlotOf returns the key's slot when what Redis hashes is known text.
func SlotOf(k Key, opts Options) (int, bool) {
	a := Analyze(k, opts)
	if a.Kind == TagUnknown {
		return 0, false
	}
	s, ok := a.Hashed.Literal()
	if !ok {
		return 0, false
	}
	return Slot(s), true
}

// RelationKind says how two keys' slots relate.
type RelationKind uint8

const (
	// Unknown: neither the same slot nor different slots can be proven.
	Unknown RelationKind = iota
	// SameSlot: the keys provably hash to one slot.
	SameSlot
	// DifferentSlots: both slots are known and differ.
	DifferentSlots
)

func (r RelationKind) String() string {
	switch r {
	case SameSlot:
		return "same slot"
	case DifferentSlots:
		return "different slots"
	default:
		return "unknown"
	}
}

// Relation is the relation of two keys' slots. SlotA and SlotB are set when
// Known says the slot could be computed.
type Relation struct {
	Kind           RelationKind
	SlotA, SlotB   int
	KnownA, KnownB bool
}

// Relate tells whether a and b provably share a slot, provably do not, or
// neither. Two keys share a slot when what Redis hashes is the same literal
// or the same expression of the same holes.
func Relate(a, b Key, opts Options) Relation {
	return relate(hashInfo(a, opts), hashInfo(b, opts))
}

type hashed struct {
	known bool // the hashed text is a literal, slot computed
	slot  int
	key   Key // the hashed key (tag or whole); valid unless unknown
	unk   bool
}

func hashInfo(k Key, opts Options) hashed {
	a := Analyze(k, opts)
	if a.Kind == TagUnknown {
		return hashed{unk: true}
	}
	h := hashed{key: a.Hashed}
	if s, ok := a.Hashed.Literal(); ok {
		h.known, h.slot = true, Slot(s)
	}
	return h
}

func relate(x, y hashed) Relation {
	r := Relation{SlotA: x.slot, SlotB: y.slot, KnownA: x.known, KnownB: y.known}
	switch {
	case x.known && y.known:
		if x.slot == y.slot {
			r.Kind = SameSlot
		} else {
			r.Kind = DifferentSlots
		}
	case !x.unk && !y.unk && x.key.Equal(y.key):
		r.Kind = SameSlot
	}
	return r
}

// GroupRelation is the relation of all keys of one command. I and J index
// the pair that decides it: two keys in different slots, or the first key
// not proven to share the first key's slot.
type GroupRelation struct {
	Relation
	I, J int
}

// RelateAll relates every key of one command, transaction or script call.
// Fewer than two keys are trivially in one slot.
func RelateAll(keys []Key, opts Options) GroupRelation {
	if len(keys) < 2 {
		return GroupRelation{Relation: Relation{Kind: SameSlot}}
	}
	infos := make([]hashed, len(keys))
	firstKnown := -1
	for i, k := range keys {
		infos[i] = hashInfo(k, opts)
		if !infos[i].known {
			continue
		}
		if firstKnown < 0 {
			firstKnown = i
		} else if infos[i].slot != infos[firstKnown].slot {
			return GroupRelation{Relation: relate(infos[firstKnown], infos[i]), I: firstKnown, J: i}
		}
	}
	for j := 1; j < len(keys); j++ {
		if r := relate(infos[0], infos[j]); r.Kind != SameSlot {
			return GroupRelation{Relation: r, I: 0, J: j}
		}
	}
	return GroupRelation{Relation: relate(infos[0], infos[1]), I: 0, J: 1}
}
