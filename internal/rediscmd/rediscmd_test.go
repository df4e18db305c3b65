package rediscmd_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/internal/rediscmd"
	"github.com/slotlint/slotlint/internal/redistest"
)

func known(words ...string) []rediscmd.Arg {
	argv := make([]rediscmd.Arg, len(words))
	for i, w := range words {
		argv[i] = rediscmd.Arg{Text: w, Known: true}
	}
	return argv
}

// Command lines whose keys the table must locate exactly as Redis does.
var commandLines = []string{
	"GET k",
	"SET k v EX 10",
	"MGET a b c",
	"MSET a 1 b 2 c 3",
	"DEL a b",
	"RENAME a b",
	"SMOVE src dst member",
	"LMOVE src dst LEFT RIGHT",
	"BLMOVE src dst LEFT RIGHT 0",
	"RPOPLPUSH src dst",
	"SINTERSTORE dst a b c",
	"ZUNIONSTORE dst 2 a b WEIGHTS 1 2",
	"ZINTER 3 a b c",
	"ZDIFF 2 a b WITHSCORES",
	"ZINTERCARD 2 a b LIMIT 5",
	"SINTERCARD 2 a b",
	"LMPOP 2 a b LEFT COUNT 2",
	"ZMPOP 1 a MIN",
	"BLMPOP 0 2 a b LEFT",
	"BZMPOP 0 2 a b MAX",
	"BLPOP a b 0",
	"BZPOPMIN a b 0",
	"EVAL script 2 k1 k2 arg",
	"EVALSHA 0123456789012345678901234567890123456789 1 k1",
	"EVAL_RO script 1 k1",
	"FCALL f 2 a b x",
	"XREAD COUNT 2 STREAMS s1 s2 0 0",
	"XREAD STREAMS s1 0",
	"XREADGROUP GROUP g c STREAMS s1 s2 > >",
	"GEORADIUS src 0 0 10 km STORE dst",
	"GEORADIUS src 0 0 10 km STOREDIST dst",
	"GEOSEARCHSTORE dst src FROMMEMBER m BYRADIUS 1 km",
	"COPY a b",
	"BITOP AND dst a b",
	"PFMERGE dst a b",
	"PFCOUNT a b",
	"OBJECT ENCODING k",
	"XINFO STREAM s",
	"MEMORY USAGE k",
	"LCS a b",
	"SUNION a b",
	"EXISTS a b a",
	"TOUCH a b",
	"UNLINK a b",
	"WATCH a b",
	"MSETNX a 1 b 2",
	"ZRANGESTORE dst src 0 -1",
	"SINTER a",
	"RENAMENX a b",
	"HSET h f v",
	"SORT k BY w",
}

// TestKeysAgreeWithRedis compares Keys with COMMAND GETKEYS of a real Redis.
func TestKeysAgreeWithRedis(t *testing.T) {
	c := redistest.Standalone(t)
	ctx := context.Background()
	for _, line := range commandLines {
		words := strings.Fields(line)
		args := make([]any, 0, len(words)+2)
		args = append(args, "COMMAND", "GETKEYS")
		for _, w := range words {
			args = append(args, w)
		}
		want, err := c.Do(ctx, args...).StringSlice()
		if err != nil {
			t.Errorf("%s: COMMAND GETKEYS: %v", line, err)
			continue
		}
		argv := known(words...)
		cmd := rediscmd.Resolve(argv)
		if cmd == nil {
			t.Errorf("%s: command not in the table", line)
			continue
		}
		refs, complete := cmd.Keys(argv)
		var got []string
		for _, r := range refs {
			got = append(got, words[r.Index])
		}
		if !complete && !cmd.Has(rediscmd.FlagMovableKeys) {
			t.Errorf("%s: incomplete for a command without movable keys", line)
		}
		if complete && !slices.Equal(got, want) {
			t.Errorf("%s: keys %q, Redis says %q", line, got, want)
		}
		if !complete && !isSubset(got, want) {
			t.Errorf("%s: partial keys %q are not among Redis's %q", line, got, want)
		}
	}
}

func isSubset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func TestKeysWithUnknownArguments(t *testing.T) {
	unknown := rediscmd.Arg{}
	tests := []struct {
		argv     []rediscmd.Arg
		keys     []int
		complete bool
	}{
		// The key count is unknown: the keys cannot be located.
		{append(known("EVAL", "s"), unknown, unknown), nil, false},
		// Unknown keys, but at known positions.
		{[]rediscmd.Arg{{Text: "MGET", Known: true}, unknown, unknown}, []int{1, 2}, true},
		// An unknown argument before the keyword might be the keyword.
		{append(append(known("XREAD"), unknown), known("STREAMS", "s", "0")...), nil, false},
		// Keyword found before any unknown argument.
		{append(known("GEORADIUS", "src", "0", "0", "1", "km", "STORE", "dst"), unknown), []int{1, 7}, true},
		// SORT's STORE is located by code in Redis, not by a spec.
		{known("SORT", "k", "STORE", "dst"), []int{1}, false},
	}
	for _, tt := range tests {
		cmd := rediscmd.Resolve(tt.argv)
		if cmd == nil {
			t.Fatalf("%v: not resolved", tt.argv)
		}
		refs, complete := cmd.Keys(tt.argv)
		var got []int
		for _, r := range refs {
			got = append(got, r.Index)
		}
		if !slices.Equal(got, tt.keys) || complete != tt.complete {
			t.Errorf("%v: keys %v complete %v, want %v %v", tt.argv, got, complete, tt.keys, tt.complete)
		}
	}
}

func TestFlagsAndCategories(t *testing.T) {
	for _, tt := range []struct {
		name string
		ok   func(*rediscmd.Command) bool
		desc string
	}{
		{"SET", func(c *rediscmd.Command) bool { return c.Has(rediscmd.FlagWrite) }, "write"},
		{"GET", func(c *rediscmd.Command) bool { return c.Has(rediscmd.FlagReadonly) }, "readonly"},
		{"BLPOP", func(c *rediscmd.Command) bool { return c.Has(rediscmd.FlagBlocking) }, "blocking"},
		{"SUBSCRIBE", func(c *rediscmd.Command) bool { return c.Has(rediscmd.FlagNoscript) }, "noscript"},
		{"FLUSHALL", func(c *rediscmd.Command) bool { return c.InACL(rediscmd.ACLDangerous) }, "@dangerous"},
		{"KEYS", func(c *rediscmd.Command) bool { return c.InACL(rediscmd.ACLDangerous) }, "@dangerous"},
	} {
		c, ok := rediscmd.Lookup(strings.ToLower(tt.name))
		if !ok || !tt.ok(c) {
			t.Errorf("%s should be %s", tt.name, tt.desc)
		}
	}
	if _, ok := rediscmd.Lookup("NOSUCHCOMMAND"); ok {
		t.Error("unknown command found")
	}
	if c := rediscmd.Resolve(known("CONFIG", "GET", "x")); c == nil || c.Name != "CONFIG|GET" {
		t.Errorf("CONFIG GET resolved to %v", c)
	}
	if len(rediscmd.Names()) < 200 {
		t.Errorf("only %d commands", len(rediscmd.Names()))
	}
}
