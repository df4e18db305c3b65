// Package luacheck finds Redis Cluster and sandbox bugs in Redis Lua
// scripts (EVAL scripts and Redis 7 Functions libraries) without running
// them: keys not passed in KEYS, loops that cannot end (LUA101), loops
// whose bound comes from the caller or the data (LUA102: a numeric for or
// a while bounded by a number from ARGV, a reply or decoded stored data,
// or, when it runs a command on each pass, by the length of a reply
// holding a whole collection; a for-in over such a reply or over a list
// decoded from a stored value that runs a command on each pass; loops
// over the request's own arguments only with ArgLoops), whole-collection
// reads and paging loops that read to the end (LUA103; a read the script
// returns as its reply only with ReturnedReads), unpack of a whole
// collection, which fails past 7,999 elements (LUA104), sandbox globals,
// nil-versus-false reply mistakes, and commands a script should not or
// cannot run. Rules has each rule's exact scope.
//
// Scripts are parsed with gopher-lua's parser after a cheap token-level
// scan bounds their nesting, then walked by a small abstract interpreter
// that follows locals, upvalues, local helper functions (analysed with
// their arguments bound at each call), redis.call aliases, pcall,
// unpack(KEYS) and redis.register_function callbacks. Keys are slot.Key
// values whose holes are "KEYS[i]" and "ARGV[i]", so a caller that knows
// what a Go call site passes can bind them with slot.Key.Substitute.
//
// Every rule is listed in Rules with its reason and a bad and a good
// example; the code of each lives in one file: loops.go (LUA101-LUA103),
// unpack.go (LUA104),
// commands.go (LUA103 single reads, LUA201-LUA203, LUA401-LUA403),
// interp.go (LUA301, LUA302; headers.go drops names a header beside the
// script defines), replies.go and presence.go (LUA303,
// LUA304), truth.go (LUA305), check.go, source.go, limits.go and
// template.go (LUA001),
// suppress.go (LUA002). assemble.go joins a prelude and included files
// and maps findings back to them; positions.go recovers columns, which
// gopher-lua's AST lacks. A finding is silenced with
//
//	-- slotlint:ignore LUA201 reason
//
// on its line or the line above; the reason is required.
package luacheck
