package luacheck

import (
	"strconv"
	"strings"

	"github.com/yuin/gopher-lua/ast"

	"github.com/slotlint/slotlint/slot"
)

// What the script knows to exist, for LUA304: a read of a value the script
// has just written (DECRBY k then GET k; HINCRBY k f then HGET k f; ZADD k s
// m then ZRANK k m), or one
// its condition has tested (if redis.call('ZSCORE', k, m) then ...), does
// not come back false; nor does the head or tail of a list a condition has
// found not empty (n <= LLEN k with n > 0, then LINDEX k -1).

// entry names a value: a key and, for hashes and sorted sets, a field or
// member (hasField false for a string key); list marks the first or last
// element of a list, there whenever the list is not empty.
type entry struct {
	key, field slot.Key
	hasField   bool
	list       bool
}

func (a entry) same(b entry) bool {
	return a.key.Equal(b.key) && a.hasField == b.hasField && a.list == b.list && (!a.hasField || a.field.Equal(b.field))
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
	case "ZRANK", "ZREVRANK":
		// Without WITHSCORE: a rank, false only when the member is missing.
		f, ok := arg(2)
		return entry{key: k, field: f, hasField: true}, ok && len(args) == 3
	case "LLEN":
		// Not a nil-bulk read: the length a condition compares (lengthGuard).
		return entry{key: k, list: true}, true
	case "LPOP", "RPOP":
		// Without a count: one element, false only when the list is empty.
		return entry{key: k, list: true}, len(args) == 2
	case "EXISTS", "TYPE":
		// Not nil-bulk reads: a test of one key's existence, which a
		// condition may compare (existenceTest).
		return entry{key: k}, len(args) == 2
	case "LINDEX":
		if len(args) == 3 {
			if t, ok := args[2].literalText(); ok && (t == "0" || t == "-1") {
				return entry{key: k, list: true}, true
			}
		}
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
	case "ZADD":
		// ZADD k [NX|XX|GT|LT|CH|INCR]... score member ...: every member is
		// there after it, added or already there, unless XX skipped it.
		i := 2
		for ; i < len(args); i++ {
			t, known := args[i].literalText()
			if !known || args[i].spread {
				break
			}
			u := strings.ToUpper(t)
			if u == "XX" {
				return
			}
			if u != "NX" && u != "GT" && u != "LT" && u != "CH" && u != "INCR" {
				break
			}
		}
		for _, a := range args[min(i, len(args)):] {
			if a.spread {
				return // unpack: the pairs cannot be told apart
			}
		}
		for i++; i < len(args); i += 2 {
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
	case "DEL", "UNLINK", "GETDEL", "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "RENAME", "HDEL", "ZREM", "ZREMRANGEBYSCORE", "ZREMRANGEBYRANK", "ZPOPMIN", "ZPOPMAX",
		"ZINTERSTORE", "ZUNIONSTORE", "ZDIFFSTORE", "ZRANGESTORE",
		"LPOP", "RPOP", "LTRIM", "LREM", "LMOVE", "RPOPLPUSH", "LMPOP":
		// A pop or trim may leave a list empty.
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

// existenceTest marks a string key present where a condition compares
// its existence: redis.call('EXISTS', k) == 0 (or 1), or
// redis.call('TYPE', k).ok (or ['ok']) compared with a name. A key that
// exists is no missing value: GET of it returns its text or fails with
// WRONGTYPE, never false. As with other tests, the mark holds after the
// condition whichever way it went: the script is taken to return or fail
// on the side where the key is missing.
func (in *interp) existenceTest(l, r ast.Expr) {
	for _, pair := range [][2]ast.Expr{{l, r}, {r, l}} {
		call, other := pair[0], pair[1]
		if id, ok := call.(*ast.IdentExpr); ok {
			// local t = redis.call('TYPE', k).ok ... if t == 'none'
			if v := in.scope.lookup(id.Value); v != nil && v.def != nil {
				call = v.def
			}
		}
		if g, ok := call.(*ast.AttrGetExpr); ok {
			if key, ok := g.Key.(*ast.StringExpr); ok && key.Value == "ok" {
				call = g.Object
			}
		}
		c, ok := call.(*ast.FuncCallExpr)
		if !ok || len(c.Args) == 0 {
			continue
		}
		name, ok := c.Args[0].(*ast.StringExpr)
		if !ok {
			continue
		}
		switch strings.ToUpper(name.Value) {
		case "EXISTS":
			if n, ok := other.(*ast.NumberExpr); !ok || n.Value != "0" && n.Value != "1" {
				continue
			}
			if _, field := pair[0].(*ast.AttrGetExpr); field {
				continue // EXISTS's reply has no field
			}
		case "TYPE":
			if _, ok := other.(*ast.StringExpr); !ok || call == c && c == pair[0] {
				continue
			}
		default:
			continue
		}
		if e, ok := in.reads[c]; ok {
			in.present = append(in.present, e)
		}
	}
}

// lengthGuard marks a list not empty where a condition compares its length
// so that it holds only for one element or more: LLEN k > 0, LLEN k >= 1,
// or n <= LLEN k (LLEN k > n) with n a variable known to be above zero on
// this path. A limit of 0 makes "0 <= LLEN k" hold for an empty list, so an
// unknown n is no guard.
func (in *interp) lengthGuard(e *ast.RelationalOpExpr) {
	length, other, op := e.Lhs, e.Rhs, e.Operator
	ent, ok := in.listLength(length)
	if !ok {
		length, other = e.Rhs, e.Lhs
		if ent, ok = in.listLength(length); !ok {
			return
		}
		// a < b is b > a.
		op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
	}
	positive := false
	switch o := other.(type) {
	case *ast.NumberExpr:
		n, err := strconv.ParseFloat(o.Value, 64)
		// A length is a whole number: above 0, or at least anything above 0.
		positive = err == nil && (op == ">" && n >= 0 || op == ">=" && n > 0)
	case *ast.IdentExpr:
		v := in.scope.lookup(o.Value)
		positive = v != nil && v.positive && (op == ">" || op == ">=")
	}
	if positive {
		in.present = append(in.present, ent)
	}
}

// listLength: e is a redis.call('LLEN', k) the script has evaluated.
func (in *interp) listLength(e ast.Expr) (entry, bool) {
	call, ok := e.(*ast.FuncCallExpr)
	if !ok {
		return entry{}, false
	}
	ent, ok := in.reads[call]
	if !ok || !ent.list || len(call.Args) == 0 {
		return entry{}, false
	}
	name, ok := call.Args[0].(*ast.StringExpr)
	return ent, ok && strings.EqualFold(name.Value, "LLEN")
}

// positiveOtherwise lists the variables a condition's failure shows to be
// above zero: n <= 0 (or n < c, n <= c with c >= 0, and the same turned
// round), alone or as one side of "or", as in "if not n or n <= 0 then
// ... else". The comparison raised no error, so n is a number.
func (in *interp) positiveOtherwise(e ast.Expr) []*variable {
	switch e := e.(type) {
	case *ast.LogicalOpExpr:
		if e.Operator == "or" {
			return append(in.positiveOtherwise(e.Lhs), in.positiveOtherwise(e.Rhs)...)
		}
	case *ast.RelationalOpExpr:
		id, num, op := e.Lhs, e.Rhs, e.Operator
		if _, ok := id.(*ast.IdentExpr); !ok {
			id, num = e.Rhs, e.Lhs
			op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
		}
		name, ok := id.(*ast.IdentExpr)
		lit, ok2 := num.(*ast.NumberExpr)
		if !ok || !ok2 {
			return nil
		}
		c, err := strconv.ParseFloat(lit.Value, 64)
		if err != nil || !(op == "<=" && c >= 0 || op == "<" && c > 0) {
			return nil
		}
		if v := in.scope.lookup(name.Value); v != nil {
			return []*variable{v}
		}
	}
	return nil
}

// listedRead: a read of a key the script has just listed (an element of a
// KEYS or SCAN reply, as is) that is nil only when the key is missing. The
// key exists: a script runs alone and keys do not expire while it runs,
// so GET gives its text (or fails with WRONGTYPE), and a pop or random
// read of one element finds one, since Redis deletes an emptied list or
// set (Jesque's watchdog: KEYS isAlive:*, then GET of each).
func listedRead(cmd string, args []value) bool {
	if len(args) < 2 || !args[1].listed {
		return false
	}
	switch cmd {
	case "GET", "GETEX", "GETDEL":
		return true
	case "LPOP", "RPOP", "SPOP", "SRANDMEMBER", "HRANDFIELD":
		return len(args) == 2 // without a count
	case "LINDEX":
		if len(args) != 3 {
			return false
		}
		t, ok := args[2].literalText()
		return ok && (t == "0" || t == "-1")
	}
	return false
}
