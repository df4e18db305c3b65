package luacheck

import (
	"strconv"
	"strings"

	"github.com/yuin/gopher-lua/ast"

	"github.com/slotlint/slotlint/slot"
)

// kind is what the abstract interpreter knows a value to be.
type kind uint8

const (
	kUnknown kind = iota
	kString       // text, as a symbolic key: literals and holes (KEYS[i], ARGV[i], replies)
	kNumber       // a number; key holds its text when literal
	kBool
	kNil
	kKeys  // the KEYS table (or a Functions callback's keys parameter)
	kArgv  // the ARGV table (or the args parameter)
	kReply // a redis.call/redis.pcall reply
	kTable // another table; lib names a sandbox library table
	kFunc
)

// source records where a value's data came from, for the loop-bound and
// key rules.
type source uint16

const (
	fromArgv        source = 1 << iota // caller input
	fromKeysLen                        // #KEYS, or an index running over KEYS
	fromReply                          // stored data
	fromDecoded                        // cjson/cmsgpack decoded data
	fromArgvLen                        // #ARGV, or an index running over ARGV
	fromWholeRead                      // a reply holding a whole collection (SMEMBERS, LRANGE 0 -1)
	fromKeysText                       // decoded from the text of a KEYS element: the request's own data
	fromArgsList                       // the length of a list decoded from ARGV or a KEYS element, or an index over it
	fromLiteralText                    // decoded from a literal string of the script: constant data
	fromCallerRange                    // a reply whose size the caller sets: a range stop passed in ARGV
)

func (s source) describe() string {
	var parts []string
	if s&fromArgv != 0 {
		parts = append(parts, "ARGV")
	}
	if s&fromKeysLen != 0 {
		parts = append(parts, "#KEYS")
	}
	if s&fromArgvLen != 0 {
		parts = append(parts, "#ARGV")
	}
	if s&fromArgsList != 0 {
		parts = append(parts, "the length of a list decoded from the request's arguments")
	}
	if s&fromReply != 0 {
		parts = append(parts, "a command reply")
	}
	if s&fromDecoded != 0 {
		parts = append(parts, "decoded data")
	}
	if s&fromCallerRange != 0 {
		parts = append(parts, "the size of a range the caller passes in ARGV")
	}
	return strings.Join(parts, " and ")
}

// The one-byte fields come first so they share one word: values are
// copied and allocated in slices all the time.
type value struct {
	kind   kind
	hasKey bool
	src    source
	// maybeNil: the value may be nil or false at run time (a nil bulk
	// reply, tonumber of one).
	maybeNil bool
	// direct: the value is a command reply itself, not computed from one.
	direct bool
	// clamped: bounded by math.min or a comparison with a constant.
	clamped bool
	// spread: the value stands for several values (unpack(t), ...).
	spread bool
	// fromEnd: a range index counted back from the end, written as a
	// negative constant minus something ("-1 - count").
	fromEnd bool
	// fromStart: the value is the literal 0 on some path ("local start =
	// 0; if limit > 0 then start = -limit end").
	fromStart bool
	// allOnSomePath: the value is the literal -1 on some path ("if last
	// < 0 then return first, -1 end"): as a LIMIT count, every member.
	allOnSomePath bool
	// minus: the value is written as a negative literal or a unary minus
	// on every path, as a range index counted back from the end is.
	minus bool
	// size: the size of a collection, on every path: the reply of a
	// counting command (ZCARD, LLEN, ZCOUNT...), or one plus or minus
	// something ("zcount - keep"). A range stop computed so reads all but
	// a few members; a start, only the last few.
	size bool
	// filledWhole: a table filled, one item a pass, by a loop over a
	// whole collection that it outlives (filled), on some path: its size
	// is the collection's (LUA104).
	filledWhole bool
	// caller: the number the caller passes, as is (tonumber(ARGV[n])), on
	// every path, or the smaller of it and something else (math.min lets
	// a stop of -1 through): as a range stop, the request decides how many
	// members the reply holds.
	caller bool
	// at is where the stored or decoded data the value holds was read
	// (the command call or the decode, see placeOf): one reply used for
	// several keys is one cause of LUA201. 0 when not known.
	at uint32
	// key is the text of strings and literal numbers, as a symbolic key.
	key slot.Key
	// cmd is the command whose reply this value is or derives from.
	cmd string
	// listed: a key name of a KEYS or SCAN reply, as is (an element, not
	// text built from one): the key exists while the script runs.
	listed bool
	// lib names a sandbox library table ("redis", "cjson", ...) or, for
	// kFunc, a builtin function ("redis.call").
	lib string
	fn  *function
}

type function struct {
	def *ast.FunctionExpr
	env *scope
	// seen is env's declaration counter when the function was defined.
	seen uint32
	// method: defined as "function T:m()", with an implicit self.
	method bool
}

var unknown = value{kind: kUnknown}

func literal(s string) value {
	return value{kind: kString, key: slot.Literal(s), hasKey: true}
}

// literalText returns the value's text when it is a known constant.
func (v value) literalText() (string, bool) {
	if !v.hasKey || (v.kind != kString && v.kind != kNumber) {
		return "", false
	}
	return v.key.Literal()
}

// isZero: the value is the literal number 0.
func (v value) isZero() bool {
	t, ok := v.literalText()
	return ok && v.kind == kNumber && t == "0"
}

// callerNumber: the value is a number the caller passes as is, ARGV[n]
// itself or tonumber of it.
func (v value) callerNumber() bool {
	if v.caller {
		return true
	}
	if v.kind != kString || !v.hasKey {
		return false
	}
	parts := v.key.Parts()
	return len(parts) == 1 && parts[0].Hole != nil && holeOrigin(parts[0].Hole.ID) == "ARGV"
}

// isMinusOne: the value is the literal number -1.
func (v value) isMinusOne() bool {
	t, ok := v.literalText()
	return ok && v.kind == kNumber && t == "-1"
}

// join is the value of a variable that holds a or b depending on the path
// taken: what both agree on, otherwise unknown with the union of sources.
// holes numbers the hole a key kept by joinKeys ends with.
func join(a, b value, holes *holeCounter) value {
	if a.kind == b.kind && a.hasKey == b.hasKey && (!a.hasKey || a.key.Equal(b.key)) &&
		a.cmd == b.cmd && a.lib == b.lib && a.fn == b.fn && a.direct == b.direct {
		a.src |= b.src
		a.maybeNil = a.maybeNil || b.maybeNil
		a.clamped = a.clamped && b.clamped
		a.fromStart = a.fromStart || b.fromStart
		a.allOnSomePath = a.allOnSomePath || b.allOnSomePath
		a.minus = a.minus && b.minus
		if a.at != b.at {
			a.at = 0 // data read at two places
		}
		a.size = a.size && b.size
		a.caller = a.caller && b.caller
		a.filledWhole = a.filledWhole || b.filledWhole
		return a
	}
	out := value{kind: kUnknown, src: a.src | b.src, maybeNil: a.maybeNil || b.maybeNil || a.kind == kNil || b.kind == kNil,
		fromStart:     a.fromStart || b.fromStart || a.isZero() || b.isZero(),
		allOnSomePath: a.allOnSomePath || b.allOnSomePath || a.isMinusOne() || b.isMinusOne()}
	if a.kind == b.kind && (a.kind == kNumber || a.kind == kString) {
		out.kind = a.kind
	}
	if a.kind == kString && b.kind == kString && a.hasKey && b.hasKey {
		// "jobIdKey = ARGV[1] .. counter" on one path and "ARGV[1] ..
		// ARGV[2]" on the other: the same text up to the first hole
		// decides the slot on both, so the key keeps it.
		if k, ok := joinKeys(a.key, b.key, holes); ok {
			out.key, out.hasKey = k, true
			if a.at == b.at {
				out.at = a.at
			}
			if a.cmd == b.cmd {
				out.cmd = a.cmd
			}
		}
	}
	out.clamped = a.clamped && b.clamped
	out.minus = a.minus && b.minus
	out.size = a.size && b.size
	out.caller = a.caller && b.caller
	out.filledWhole = a.filledWhole || b.filledWhole
	return out
}

// joinKeys is the key that a or b is, depending on the path taken, when
// their first hole is the same value (samePart) and so is everything
// before it: the common parts, then one hole for the rest, which differs
// by path. Text up to the first hole with no "{" in it leaves the slot to
// that hole's value, the same on both paths, and a tag closed before it
// is the same tag on both. Keys whose first hole differs have no common
// slot-deciding part, and a "{" left open before the rest makes the rest
// part of the tag: ok is false.
func joinKeys(a, b slot.Key, holes *holeCounter) (slot.Key, bool) {
	pa, pb := a.Parts(), b.Parts()
	n := 0
	hole := false
	for n < len(pa) && n < len(pb) && samePart(pa[n], pb[n]) {
		if p := pa[n]; p.Hole != nil {
			hole = true
		} else if open := strings.LastIndexByte(p.Lit, '{'); open >= 0 && !strings.Contains(p.Lit[open:], "}") {
			return slot.Key{}, false
		}
		n++
	}
	if !hole || n == len(pa) && n == len(pb) {
		return slot.Key{}, false
	}
	if (n == len(pa) || n == len(pb)) && firstHoleOrigin(pa) != "KEYS" {
		// A whole key from ARGV or from data on one path: -keys-tagged
		// must not take it for a prefix.
		return slot.Key{}, false
	}
	common := tail(pa[:n])
	label := "a part that differs by path"
	ta, tb := slot.Concat(tail(pa[n:])...), slot.Concat(tail(pb[n:])...)
	if !joined(ta) && !joined(tb) {
		if s := ta.Format(" .. ") + " or " + tb.Format(" .. "); len(s) <= 60 {
			label = "(" + s + ")"
		}
	}
	*holes++
	id := holeID{origin: holeOther, index: "join", seq: int(*holes)}
	common = append(common, slot.HoleKey(id, label))
	return slot.Concat(common...), true
}

// joined: the key holds a hole joinKeys made, whose label would nest.
func joined(k slot.Key) bool {
	for _, h := range k.Holes() {
		if id, ok := h.ID.(holeID); ok && id.index == "join" {
			return true
		}
	}
	return false
}

func samePart(p, q slot.Part) bool {
	if (p.Hole == nil) != (q.Hole == nil) {
		return false
	}
	if p.Hole == nil {
		return p.Lit == q.Lit
	}
	if p.Hole.ID == q.Hole.ID {
		return true
	}
	// Data read at one place (a reply, a field decoded from ARGV) gets a
	// fresh hole each time a key is built from it; its place names it, as
	// it names one cause of LUA201.
	h, ok1 := p.Hole.ID.(holeID)
	g, ok2 := q.Hole.ID.(holeID)
	return ok1 && ok2 && h.at != 0 && h.at == g.at && h.origin == g.origin && h.index == g.index
}

// tail turns parts back into keys, for Concat.
func tail(parts []slot.Part) []slot.Key {
	out := make([]slot.Key, len(parts))
	for i, p := range parts {
		if p.Hole != nil {
			out[i] = slot.HoleKey(p.Hole.ID, p.Hole.Label)
		} else {
			out[i] = slot.Literal(p.Lit)
		}
	}
	return out
}

// holeCounter makes hole IDs unique for values that are not the same at
// run time (computed indexes, replies).
type holeCounter int

func (h *holeCounter) next(origin, label string) slot.Key {
	return h.nextAt(origin, label, 0)
}

// nextAt is next for data read at a known place (value.at).
func (h *holeCounter) nextAt(origin, label string, at uint32) slot.Key {
	*h++
	id := holeID{origin: origin, seq: int(*h), at: at}
	if origin == "KEYS" || origin == "ARGV" {
		id.index = "?"
	}
	return slot.HoleKey(id, label)
}

// holeID is the identity of a hole in a Lua key: KEYS[index] and
// ARGV[index] with a literal index are bindable by callers, the same slot
// everywhere in the script; the others (a computed index, a reply, data,
// any other value) have their own seq, unique per occurrence.
type holeID struct {
	origin string // "KEYS", "ARGV" or one of holeReply, holeData, holeKeysData, holeLiteralData, holeOther
	index  string // the index as written, "?" when computed
	seq    int
	at     uint32 // where a reply or decoded data was read (value.at)
}

// SlotHoleID marks holeID as a hole identity.
func (holeID) SlotHoleID() {}

// KeysHole is the ID of the hole KEYS[n] in the keys Check returns, which
// a caller binds to the key it passes there.
func KeysHole(n int) slot.HoleID { return holeID{origin: "KEYS", index: strconv.Itoa(n)} }

// ArgvHole is the ID of the hole ARGV[n] in the keys Check returns.
func ArgvHole(n int) slot.HoleID { return holeID{origin: "ARGV", index: strconv.Itoa(n)} }

// Hole origins besides KEYS and ARGV, each unique per occurrence.
const (
	holeReply = "reply"
	holeData  = "data"
	// holeKeysData is data decoded from the text of a KEYS element (a
	// JSON list the caller packed into KEYS[1]): not the key itself.
	holeKeysData = "keysdata"
	// holeLiteralData is data decoded from a literal string of the
	// script (cjson.decode('{"q":"jobs"}')).
	holeLiteralData = "literaldata"
	holeOther       = "value"
)

// placeOf packs a line and column into a value.at: the place a reply or
// decoded data was read, unique per call in a file for any column below
// 4096 and line below 2^19 (beyond, places may share an identity and
// their keys be named as one cause).
func placeOf(line, col int) uint32 {
	return uint32(line&(1<<19-1))<<12 | uint32(min(max(col, 0), 4095))
}

// paramPlace is the place of the i-th parameter of a function defined on
// line: data a parameter holds is named by the parameter inside the
// function. The high bit keeps it apart from the places of calls.
func paramPlace(line, i int) uint32 {
	return 1<<31 | placeOf(line, i)
}

// holeOrigin classifies a hole by its ID.
func holeOrigin(id slot.HoleID) string {
	h, ok := id.(holeID)
	if !ok {
		return "unknown"
	}
	switch h.origin {
	case "KEYS", "ARGV", holeReply, holeData, holeKeysData, holeLiteralData:
		return h.origin
	}
	return "unknown"
}
