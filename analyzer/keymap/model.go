package keymap

import (
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/slot"
)

// SchemaVersion is the version of the map's JSON form (docs/keys.md). It
// changes only when a field changes meaning or goes away; new fields may
// appear without a new version.
const SchemaVersion = 1

// Map is the key-design map of a set of packages: the key families their
// code uses and the joint uses that combine them.
type Map struct {
	Version int `json:"version"`
	// Packages are the analyzed packages, sorted.
	Packages []string `json:"packages"`
	// Families are sorted by Name.
	Families []*Family `json:"families"`
	// Joint are the multi-key commands, transactions and script calls, in
	// file, line, column order.
	Joint []*JointUse `json:"joint"`
	// Groups are the families that joint uses tie together, each with the
	// tag that would put them in one slot.
	Groups []*Group `json:"groups"`
	// Moves are families with a constant tag that could carry an entity
	// tag instead.
	Moves []*Move `json:"moves"`
	// Live is what sampling a running server adds (slotlint keys -redis);
	// nil in the static map.
	Live any `json:"live,omitempty"`
}

// Family is a key shape with holes, such as "order:{" + id + "}:lock": every
// key the code builds that way, whatever the hole holds.
type Family struct {
	// Name is the family's literal text with each hole written as '*' and
	// braces kept: "order:{*}:lock". It identifies the family.
	Name string `json:"name"`
	// Pattern shows the holes by what the code calls them, as at the first
	// call site: "order:{<id>}:lock".
	Pattern string `json:"pattern"`
	// Key is the shape as the key model holds it (the first call site's
	// key): literal parts and holes, for matching keys against the family.
	Key slot.Key `json:"-"`
	// Parts is Key for other tools: literal text, or a hole with its label.
	Parts []Part `json:"parts"`
	// Tag is what the family's hash tag is made of.
	Tag TagKind `json:"tag"`
	// TagText is the tag as written, "{<id>}" or "{cart}"; empty without
	// a tag.
	TagText string `json:"tagText,omitempty"`
	// Slot is the one slot every key of the family hashes to, when that is
	// known: a constant tag, or a key with no hole.
	Slot *int `json:"slot,omitempty"`
	// Types are the Redis data types of the commands used on the family
	// ("hash", "string", ...), sorted; commands of every type (DEL, EXPIRE)
	// add none.
	Types []string `json:"types"`
	// Commands are the commands sent on the family's keys, sorted by name.
	Commands []CommandUse `json:"commands"`
	// Sites counts the places in the code that use the family's keys;
	// FirstSites are the first few of them in file order.
	Sites      int    `json:"sites"`
	FirstSites []Site `json:"firstSites"`
	// Packages are the packages the family is used in, sorted.
	Packages []string `json:"packages"`
	// Derived names the key a library derives from a key the code passes
	// ("wake-up list"), for a family no code writes out itself.
	Derived string `json:"derived,omitempty"`
	// Live is what sampling a running server found for the family; nil in
	// the static map.
	Live any `json:"live,omitempty"`
}

// Part is one piece of a family's shape: literal text, or a hole.
type Part struct {
	Lit  string `json:"lit,omitempty"`
	Hole string `json:"hole,omitempty"` // the hole's label; set only for a hole
}

// IsHole reports whether the part is a hole.
func (p Part) IsHole() bool { return p.Hole != "" }

// TagKind says what a family's hash tag is made of.
type TagKind string

const (
	// EntityTag: the tag holds a hole, so each entity's keys have a slot of
	// their own ("order:{<id>}:lock").
	EntityTag TagKind = "entity"
	// ConstantTag: the tag is literal text, so every key of the family is
	// in one slot ("{cart}:<id>").
	ConstantTag TagKind = "constant"
	// NoTag: Redis hashes the whole key.
	NoTag TagKind = "none"
	// UnknownTag: a hole may hold a brace (-slotlint.braces), so where the
	// tag is cannot be told.
	UnknownTag TagKind = "unknown"
)

// CommandUse is one command sent on a family's keys.
type CommandUse struct {
	Name string `json:"name"`
	// Access is "read", "write" or "" (neither: a script, a command of the
	// server's), from the command's flags in Redis's command table.
	Access string `json:"access,omitempty"`
	Count  int    `json:"count"`
}

// Site is a place in the code.
type Site struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Package string `json:"package"`
}

// String is "file:line:col".
func (s Site) String() string {
	return s.File + ":" + strconv.Itoa(s.Line) + ":" + strconv.Itoa(s.Col)
}

// JointKind says what combines the keys of a joint use.
type JointKind string

const (
	// JointCommand: one multi-key command (MGET, RENAME, SINTERSTORE).
	JointCommand JointKind = "command"
	// JointTransaction: the keys of a MULTI/EXEC transaction.
	JointTransaction JointKind = "transaction"
	// JointWatch: a WATCH block and the transaction inside it.
	JointWatch JointKind = "watch"
	// JointScript: the keys of one EVAL, EVALSHA or FCALL.
	JointScript JointKind = "script"
	// JointCompanion: a key and the key a library derives from it and needs
	// in its slot (the runtime lock's wake-up list).
	JointCompanion JointKind = "companion"
)

// Verdict is what is known of a joint use's slots.
type Verdict string

const (
	// SameSlot: the keys share a slot by construction.
	SameSlot Verdict = "same-slot"
	// CrossSlot: the keys' slots are known to differ, or nothing gives
	// them a common tag; Rules names the rules that report it.
	CrossSlot Verdict = "cross-slot"
	// Unknown: some keys are values built elsewhere or not followed.
	Unknown Verdict = "unknown"
)

// JointUse is one place where keys must share a slot.
type JointUse struct {
	Kind JointKind `json:"kind"`
	// What names the command or transaction as Redis sees it: "MGET",
	// "MULTI/EXEC", "WATCH".
	What string `json:"what"`
	// Method is how a transaction is written in Go ("TxPipelined"), for
	// people.
	Method string `json:"method,omitempty"`
	Site   Site   `json:"site"`
	// Families are the families of the keys, in the order of their first
	// key; a key of no family (a value built elsewhere) is counted in
	// Unresolved instead.
	Families   []string `json:"families"`
	Unresolved int      `json:"unresolved,omitempty"`
	Verdict    Verdict  `json:"verdict"`
	// Reason says why the verdict is not SameSlot, in the rules' words.
	Reason string `json:"reason,omitempty"`
	// Rules are the IDs of the rules that report this use, sorted, and
	// Findings their findings on it.
	Rules    []string  `json:"rules,omitempty"`
	Findings []Finding `json:"findings,omitempty"`
	// Split: the client sends the command once per slot of its keys, so it
	// does not fail, but it is not atomic.
	Split bool `json:"split,omitempty"`
	// common is, per family, the index among its holes of the hole every
	// key of the use shares, and commonLabel that hole's label; empty when
	// the keys share no hole.
	common      map[string]int
	commonLabel string
	// within are the source ranges a diagnostic of this use lies in.
	within []span
}

// Finding is a rule's finding on a joint use.
type Finding struct {
	Rule    string `json:"rule"`
	Site    Site   `json:"site"`
	Message string `json:"message"`
}

// Group is a set of families that joint uses tie together: to run on a
// cluster they must live in one slot per entity.
type Group struct {
	Families []string `json:"families"`
	// Verdict is the worst verdict of the group's joint uses.
	Verdict Verdict `json:"verdict"`
	// Joint counts the joint uses that tie the group.
	Joint int `json:"joint"`
	// Tag is the tag that would put each entity's keys in one slot: the
	// hole every joint use shares, "{<id>}"; empty when none does.
	Tag string `json:"tag,omitempty"`
	// Suggested is, per family whose shape would change, the pattern
	// with that tag.
	Suggested []Suggestion `json:"suggested,omitempty"`
}

// Suggestion is a family's shape with a proposed tag.
type Suggestion struct {
	Family  string `json:"family"`
	Pattern string `json:"pattern"`
}

// Move is a family with a constant tag that could take an entity tag: all
// its keys share one slot today, on one shard.
type Move struct {
	Family string `json:"family"`
	From   string `json:"from"`
	To     string `json:"to"`
	Slot   int    `json:"slot"`
	// Blocked is the joint use that needs the constant tag, when one of
	// the family's same-slot joint uses combines it with a key of another
	// entity or a constant key: the move would make that use cross-slot.
	Blocked *Blocker `json:"blocked,omitempty"`
}

// Blocker is the joint use that keeps a family on its constant tag.
type Blocker struct {
	What string `json:"what"`
	Site Site   `json:"site"`
}

// Family returns the family with the given name.
func (m *Map) Family(name string) (*Family, bool) {
	for _, f := range m.Families {
		if f.Name == name {
			return f, true
		}
	}
	return nil, false
}

// familyName is the family's identity: literal parts as written, each hole
// '*'. Hole labels differ between call sites of one shape, so they are not
// part of it.
func familyName(k slot.Key) string {
	var b strings.Builder
	for _, p := range k.Parts() {
		if p.Hole != nil {
			b.WriteByte('*')
		} else {
			b.WriteString(p.Lit)
		}
	}
	return b.String()
}

// pattern writes the key with each hole as <label>.
func pattern(k slot.Key) string {
	var b strings.Builder
	for _, p := range k.Parts() {
		if p.Hole != nil {
			b.WriteString("<" + p.Hole.Label + ">")
		} else {
			b.WriteString(p.Lit)
		}
	}
	return b.String()
}

func partsOf(k slot.Key) []Part {
	out := make([]Part, 0, len(k.Parts()))
	for _, p := range k.Parts() {
		if p.Hole != nil {
			label := p.Hole.Label
			if label == "" {
				label = "?"
			}
			out = append(out, Part{Hole: label})
		} else {
			out = append(out, Part{Lit: p.Lit})
		}
	}
	return out
}

// isFamilyKey reports whether a key names a family: it has literal text. A
// key that is only holes (a key passed in whole) says nothing of its
// shape; whoever built it has the family.
func isFamilyKey(k slot.Key) bool {
	for _, p := range k.Parts() {
		if p.Hole == nil {
			return true
		}
	}
	return false
}
