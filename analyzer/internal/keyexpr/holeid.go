package keyexpr

import (
	"fmt"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/slot"
)

// HoleID is the identity of a hole in a key built from Go code: the value
// the hole stands for. Two holes with equal IDs hold the same text at run
// time. Other packages may only compare HoleIDs (as slot.Hole.ID); the
// questions rules ask about a hole (is it a package-level variable, does
// its text hold a brace, is it a value printed) are this package's
// functions.
//
// The ID is a canonical text that only this file writes and reads:
//
//	u@P                 the value of the expression at P, known only there
//	safe:u@P            the same, whose text never holds a brace
//	v:NAME@D            the variable declared at D, one value throughout
//	v:NAME@D#U          that variable as read at U (its flow not followed)
//	v:NAME@D=W          that variable as written at W
//	g:PKG.NAME          a package-level variable
//	param:I             parameter I of a key-builder summary
//	recv                the receiver of a method summary
//	ID.F                field F of the struct value ID
//	CLASS(ID)           the value ID printed: dec for a decimal integer,
//	                    else the fmt verb
//	safe:FN(ID)         the value ID passed through FN, which prints no brace
//	ID@callP            a builder's own value, renamed for the call at P
//	ID'                 a value declared inside a loop, renamed for the loop
//	recv.w:FN/ID        a value method FN computes and stores in a field
//	[safe:]opaque:I     part I of a builder fact that the builder computes
type HoleID struct{ s string }

// SlotHoleID marks HoleID as a hole identity.
func (HoleID) SlotHoleID() {}

// idOf is h's ID when keyexpr built it; a hole of a Lua key has another.
func idOf(h slot.Hole) (HoleID, bool) {
	id, ok := h.ID.(HoleID)
	return id, ok
}

// recvID is the hole of a method's receiver in its summary; its fields
// are recvID.name, printed ones class(recvID.name).
var recvID = HoleID{"recv"}

func uniqueID(at token.Pos) HoleID     { return HoleID{fmt.Sprintf("u@%d", at)} }
func safeUniqueID(at token.Pos) HoleID { return HoleID{fmt.Sprintf("safe:u@%d", at)} }

// varID is the ID of variable v's value as a whole.
func varID(v *types.Var) HoleID {
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return globalID(v.Pkg().Path() + "." + v.Name())
	}
	return HoleID{fmt.Sprintf("v:%s@%d", v.Name(), v.Pos())}
}

// varReadID is v's value as read (or appended to) at at, when its flow is
// not followed there.
func varReadID(v *types.Var, at token.Pos) HoleID {
	return HoleID{fmt.Sprintf("v:%s@%d#%d", v.Name(), v.Pos(), at)}
}

// varWriteID is v's value after the write at w.
func varWriteID(v *types.Var, w token.Pos) HoleID {
	return HoleID{fmt.Sprintf("v:%s@%d=%d", v.Name(), v.Pos(), w)}
}

// globalID is the package-level variable named by qualified, its package
// path and name.
func globalID(qualified string) HoleID { return HoleID{"g:" + qualified} }

func paramID(i int) HoleID { return HoleID{"param:" + strconv.Itoa(i)} }

// opaqueID is part i of a builder fact, a value the builder computes.
func opaqueID(i int, safe bool) HoleID {
	if safe {
		return HoleID{"safe:opaque:" + strconv.Itoa(i)}
	}
	return HoleID{"opaque:" + strconv.Itoa(i)}
}

// fieldID is field name of the struct value id.
func fieldID(id HoleID, name string) HoleID { return HoleID{id.s + "." + name} }

// printedID is value id printed in class: "dec" for a decimal integer,
// else the fmt verb; a class formattedParam returned ("safe:Itoa") too.
func printedID(class string, id HoleID) HoleID { return HoleID{class + "(" + id.s + ")"} }

// safeCallID is value id passed through function fn, whose text holds no
// brace.
func safeCallID(fn string, id HoleID) HoleID { return printedID("safe:"+fn, id) }

// atCall renames a builder's own value for the call at call: two calls are
// two values.
func atCall(id HoleID, call token.Pos) HoleID { return HoleID{fmt.Sprintf("%s@call%d", id.s, call)} }

// primed renames a value declared inside a loop: each iteration has its own.
func primed(id HoleID) HoleID { return HoleID{id.s + "'"} }

// isUnique reports whether id is an expression's value known only where it
// is read (not its brace-free kind).
func (id HoleID) isUnique() bool { return strings.HasPrefix(id.s, "u@") }

// isOwn reports whether keyexpr built h's ID.
func isOwn(h slot.Hole) bool {
	_, ok := idOf(h)
	return ok
}

func isUniqueHole(h slot.Hole) bool {
	id, ok := idOf(h)
	return ok && id.isUnique()
}

// isGlobal reports whether id is a package-level variable.
func (id HoleID) isGlobal() bool { return strings.HasPrefix(id.s, "g:") }

// param returns i when id is parameter i of a summary.
func (id HoleID) param() (int, bool) {
	s, ok := strings.CutPrefix(id.s, "param:")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(s)
	return i, err == nil
}

// printedParam returns the class and index when id is a summary's
// parameter printed ("dec(param:0)", "safe:Itoa(param:1)").
func (id HoleID) printedParam() (class string, i int, ok bool) {
	open := strings.IndexByte(id.s, '(')
	if open < 0 || !strings.HasSuffix(id.s, ")") {
		return "", 0, false
	}
	n, ok := HoleID{id.s[open+1 : len(id.s)-1]}.param()
	if !ok {
		return "", 0, false
	}
	return id.s[:open], n, true
}

// safeClass reports whether a printing class names a function whose text
// holds no brace ("safe:Itoa").
func safeClass(class string) bool { return strings.HasPrefix(class, "safe:") }

// braceFree reports whether id's text can never hold '{' or '}'.
func (id HoleID) braceFree() bool {
	if strings.HasPrefix(id.s, "safe:") {
		return true
	}
	if i := strings.IndexByte(id.s, '('); i > 0 {
		return braceFreeClass[id.s[:i]]
	}
	return false
}

// prints reports whether id is the value inner printed by a class or a
// function: the decimal text of an int.
func (id HoleID) prints(inner HoleID) bool { return strings.HasSuffix(id.s, "("+inner.s+")") }

// onReceiver rewrites "recv", "recv.f", "class(recv.f)" or "safe:…recv.f…"
// onto base; false when id does not read the receiver.
func (id HoleID) onReceiver(base HoleID) (HoleID, bool) {
	s, ok := replaceReceiver(id.s, base.s)
	return HoleID{s}, ok
}

func replaceReceiver(id, base string) (string, bool) {
	if rest, ok := strings.CutPrefix(id, "safe:"); ok {
		r, ok := replaceReceiver(rest, base)
		return "safe:" + r, ok
	}
	if id == recvID.s || strings.HasPrefix(id, recvID.s+".") {
		return base + id[len(recvID.s):], true
	}
	if open := strings.IndexByte(id, '('); open >= 0 && strings.HasSuffix(id, ")") {
		if inner, ok := replaceReceiver(id[open+1:len(id)-1], base); ok {
			return id[:open+1] + inner + ")", true
		}
	}
	return "", false
}

// isReceiver reports whether id reads the receiver of a method summary.
func (id HoleID) isReceiver() bool {
	_, ok := id.onReceiver(recvID)
	return ok
}

// storedBy is the value id that method fn computes, as the receiver's
// field holds it after fn stores it there: the printing class and safe
// marks that say what text it prints stay outside.
func (id HoleID) storedBy(fn *types.Func) HoleID {
	return HoleID{qualify(id.s, recvID.s+".w:"+fn.FullName()+"/")}
}

func qualify(id, prefix string) string {
	if rest, ok := strings.CutPrefix(id, "safe:"); ok {
		return "safe:" + qualify(rest, prefix)
	}
	if open := strings.IndexByte(id, '('); open > 0 && strings.HasSuffix(id, ")") {
		return id[:open+1] + qualify(id[open+1:len(id)-1], prefix) + ")"
	}
	return prefix + id
}

// factPart is a builder's key part holding id, as its fact carries it:
// parameters (printed or not), the receiver's values and package-level
// variables keep their identity; any other value becomes opaque, a new
// value at each call. A value derived from a parameter (its field, its
// renaming at a call) has no part: false. factID reads FactPart.Recv and
// Global back.
func (id HoleID) factPart(label string) (FactPart, bool) {
	if strings.HasPrefix(id.s, "param:") {
		i, ok := id.param()
		return FactPart{Param: i, Label: label}, ok
	}
	if cls, i, ok := id.printedParam(); ok {
		return FactPart{Param: i, Format: cls, Label: label}, true
	}
	if id.isReceiver() {
		return FactPart{Param: -1, Recv: id.s, Label: label}, true
	}
	if id.isGlobal() {
		return FactPart{Param: -1, Global: id.s, Label: label}, true
	}
	return FactPart{Param: -1, Opaque: true, Safe: id.braceFree(), Label: label}, true
}

func factID(s string) HoleID { return HoleID{s} }

// IsGlobal reports whether h is a package-level variable: the same value
// wherever a key reads it, in every call of a helper.
func IsGlobal(h slot.Hole) bool {
	id, ok := idOf(h)
	return ok && id.isGlobal()
}

// AtCall is h as seen by the caller of the helper whose key holds it: a
// package-level variable stays itself (false); any other value of the
// helper is renamed for the call at call, so two calls are two values.
func AtCall(h slot.Hole, call token.Pos) (slot.Key, bool) {
	id, ok := idOf(h)
	if !ok || id.isGlobal() {
		return slot.Key{}, false
	}
	return slot.HoleKey(atCall(id, call), h.Label), true
}

// Prints reports whether hole ID h is value printed, by a fmt verb or a
// function such as strconv.Itoa: the decimal text of an int id.
func Prints(h, value slot.HoleID) bool {
	id, ok := h.(HoleID)
	v, vok := value.(HoleID)
	return ok && vok && id.prints(v)
}

// BraceFree reports whether a hole's text can never hold '{' or '}': a
// number or boolean as printed, a hex, base32 or base64 encoding.
func BraceFree(h slot.Hole) bool {
	id, ok := idOf(h)
	return ok && id.braceFree()
}

// braceFreeClass are the formatting classes whose text has no brace.
var braceFreeClass = map[string]bool{"dec": true, "d": true, "x": true, "X": true, "t": true}

// VarHole is the hole ID a local variable that is never written after its
// declaration (a parameter, a range variable) takes in keys read from it:
// a caller binds a function's parameters to its arguments through it.
func (x *Extractor) VarHole(v *types.Var) slot.HoleID { return varID(v) }
