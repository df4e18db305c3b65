package luacheck

import (
	"strings"

	"github.com/yuin/gopher-lua/ast"

	"github.com/slotlint/slotlint/slot"
)

// What the script knows to exist, for LUA304: a read of a value the script
// has just written (DECRBY k then GET k; HINCRBY k f then HGET k f), or one
// its condition has tested (if redis.call('ZSCORE', k, m) then ...), does
// not come back false.

// entry names a value: a key and, for hashes and sorted sets, a field or
// member (hasField false for a string key).
type entry struct {
	key, field slot.Key
	hasField   bool
}

func (a entry) same(b entry) bool {
	return a.key.Equal(b.key) && a.hasField == b.hasField && (!a.hasField || a.field.Equal(b.field))
}

// readEntry is the value a nil-bulk read names: GET k, HGET k f, ZSCORE k m.
func readEntry(cmd string, args []value) (entry, bool) {
	arg := func(i int) (slot.Key, bool) {
		if i < len(args) && args[i].hasKey && !args[i].spread {
			return args[i].key, true
		}
		return slot.Key{}, false
	}
	k, ok := arg(1)
	if !ok {
		return entry{}, false
	}
	switch cmd {
	case "GET", "GETEX":
		return entry{key: k}, true
	case "HGET", "ZSCORE":
		f, ok := arg(2)
		return entry{key: k, field: f, hasField: true}, ok
	}
	return entry{}, false
}

// wrote records what a write leaves in place, and forgets what DEL and
// friends remove.
func (in *interp) wrote(cmd string, args []value) {
	arg := func(i int) (slot.Key, bool) {
		if i < len(args) && args[i].hasKey && !args[i].spread {
			return args[i].key, true
		}
		return slot.Key{}, false
	}
	k, ok := arg(1)
	if !ok {
		return
	}
	switch cmd {
	case "INCR", "INCRBY", "DECR", "DECRBY", "INCRBYFLOAT", "GETSET", "APPEND", "SETEX", "PSETEX":
		in.present = append(in.present, entry{key: k})
	case "SET":
		// SET k v [EX n | PX n ...] sets; NX, XX and GET may not.
		for _, a := range args[min(3, len(args)):] {
			t, known := a.literalText()
			if !known || a.spread || strings.EqualFold(t, "NX") || strings.EqualFold(t, "XX") || strings.EqualFold(t, "GET") {
				return
			}
		}
		in.present = append(in.present, entry{key: k})
	case "HSET", "HMSET", "HSETNX":
		for i := 2; i < len(args); i += 2 {
			if f, ok := arg(i); ok {
				in.present = append(in.present, entry{key: k, field: f, hasField: true})
			}
		}
	case "HINCRBY", "HINCRBYFLOAT", "ZINCRBY":
		f, ok := arg(2)
		if cmd == "ZINCRBY" {
			f, ok = arg(3)
		}
		if ok {
			in.present = append(in.present, entry{key: k, field: f, hasField: true})
		}
	case "DEL", "UNLINK", "GETDEL", "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "RENAME", "HDEL", "ZREM", "ZREMRANGEBYSCORE", "ZREMRANGEBYRANK", "ZPOPMIN", "ZPOPMAX":
		in.present = slicesDeleteKey(in.present, k)
	}
}

func slicesDeleteKey(es []entry, k slot.Key) []entry {
	out := es[:0]
	for _, e := range es {
		if !e.key.Equal(k) {
			out = append(out, e)
		}
	}
	return out
}

func (in *interp) isPresent(e entry) bool {
	for _, p := range in.present {
		if p.same(e) {
			return true
		}
	}
	return false
}

// testedCall marks the value a tested read names as present: the
// condition "redis.call('ZSCORE', k, m) ~= false" (or a plain truth test,
// or tonumber(...) ~= nil) guards the same read later on, as a tested
// local does.
func (in *interp) testedCall(call *ast.FuncCallExpr) {
	if id, ok := call.Func.(*ast.IdentExpr); ok && id.Value == "tonumber" && len(call.Args) == 1 {
		if inner, ok := call.Args[0].(*ast.FuncCallExpr); ok {
			call = inner
		}
	}
	if e, ok := in.reads[call]; ok {
		in.present = append(in.present, e)
	}
}
