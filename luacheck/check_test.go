package luacheck

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/slot"
)

func rules(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule)
	}
	return out
}

func only(t *testing.T, fs []Finding, rule string) Finding {
	t.Helper()
	if len(fs) != 1 || fs[0].Rule != rule {
		t.Fatalf("got %v, want one %s", fs, rule)
	}
	return fs[0]
}

// deepInputs are inputs a million levels deep in every form the parser or
// the walker could recurse on (brackets, blocks, unary chains,
// right-associative operator chains), and huge inputs of the shapes that
// cost quadratic time or unbounded memory before: tens of thousands of
// locals, a 300,000-term left-associative chain. Each maps to the text of
// the one finding it must give.
func deepInputs() map[string]struct{ src, want string } {
	const n = 1_000_000
	nest := "nesting deeper than 200"
	var locals strings.Builder
	for i := range 15_000 {
		fmt.Fprintf(&locals, "local a%d = redis.call('GET', KEYS[1])\n", i)
	}
	return map[string]struct{ src, want string }{
		"parens":     {"return " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n), nest},
		"tables":     {"return " + strings.Repeat("{", n) + strings.Repeat("}", n), nest},
		"blocks":     {strings.Repeat("do ", n) + strings.Repeat("end ", n), nest},
		"functions":  {strings.Repeat("local f = function() ", n) + strings.Repeat("end ", n), nest},
		"loops":      {strings.Repeat("while x do ", n) + strings.Repeat("end ", n), nest},
		"calls":      {"return " + strings.Repeat("f(", n) + strings.Repeat(")", n), nest},
		"not":        {"return " + strings.Repeat("not ", n) + "x", nest},
		"minus":      {"return " + strings.Repeat("- ", n) + "1", nest},
		"concat":     {"return " + strings.Repeat("ARGV[1] .. ", 3*n/10) + "'x'", nest},
		"power":      {"return " + strings.Repeat("2 ^ ", n/10) + "2", nest},
		"locals":     {locals.String(), "main function has more than 200 local variables"},
		"plus chain": {"return " + strings.Repeat("ARGV[1] + ", 3*n/10) + "1", "more than 250000 tokens"},
		"tree depth": {"return " + strings.Repeat("ARGV[1] + ", 6000) + "1", "syntax tree nests deeper than 5000"},
	}
}

// TestDeepInput: each deep or huge input gives its one finding. Time and
// memory are BenchmarkDeepInput's (figures in BENCHMARKS.md): a wall-clock
// limit here would fail on a loaded machine.
func TestDeepInput(t *testing.T) {
	for name, in := range deepInputs() {
		t.Run(name, func(t *testing.T) {
			f := only(t, Check([]byte(in.src), Options{MaxBytes: 64 << 20}), RuleSyntax)
			if !strings.Contains(f.Message, in.want) {
				t.Errorf("message %q does not say %q", f.Message, in.want)
			}
		})
	}
}

func TestDepthWithinLimitIsChecked(t *testing.T) {
	src := "return " + strings.Repeat("(", 150) + "redis.call('GET', 'lit')" + strings.Repeat(")", 150)
	only(t, Check([]byte(src), Options{}), RuleUndeclaredKey)
}

func TestSizeLimit(t *testing.T) {
	src := []byte("return 1 -- " + strings.Repeat("x", 100))
	f := only(t, Check(src, Options{MaxBytes: 50}), RuleSyntax)
	if !strings.Contains(f.Message, "over the limit of 50") {
		t.Errorf("message %q", f.Message)
	}
	if fs := Check(src, Options{}); len(fs) != 0 {
		t.Errorf("default limit: %v", fs)
	}
}

// TestBOMAndShebangKeepLines: findings after a BOM and a shebang keep
// their line numbers, and the flags are read.
func TestBOMAndShebangKeepLines(t *testing.T) {
	src := "\xEF\xBB\xBF#!lua flags=no-writes,allow-oom\r\n\nredis.call('SET', KEYS[1], 'x')\n"
	res := Analyze([]byte(src), Options{})
	f := only(t, res.Findings, RuleWriteInReadOnly)
	if f.Pos.Line != 3 || f.Pos.Column != 12 {
		t.Errorf("position %v, want line 3 column 12", f.Pos)
	}
	if strings.Join(res.Flags, ",") != "no-writes,allow-oom" {
		t.Errorf("flags %v", res.Flags)
	}
}

func TestShebangErrors(t *testing.T) {
	for src, want := range map[string]string{
		"#!lua flags=no-writes,bogus\nreturn 1": `unexpected flag "bogus"`,
		"#!lua name=lib\nreturn 1":              `unknown option "name=lib"`,
		"#!python\nreturn 1":                    `unknown script engine "python"`,
	} {
		f := only(t, Check([]byte(src), Options{}), RuleSyntax)
		if !strings.Contains(f.Message, want) {
			t.Errorf("%q: message %q, want %q", src, f.Message, want)
		}
	}
	f := only(t, Check([]byte("redis.register_function('f', function() return 1 end)"), Options{Function: true}), RuleSyntax)
	if !strings.Contains(f.Message, "#!lua name=") {
		t.Errorf("library without name: %q", f.Message)
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	f := only(t, Check([]byte("local x = 1\nlocal y = = 2\n"), Options{}), RuleSyntax)
	if f.Pos.Line != 2 || f.Pos.Column != 11 {
		t.Errorf("position %v, want 2:11", f.Pos)
	}
}

// TestResultForCallers checks what a Go-side caller relies on: keys as
// slot.Key values with bindable KEYS/ARGV holes, the highest KEYS index,
// registered functions.
func TestResultForCallers(t *testing.T) {
	src := `
local rcall = redis.call
local lock = KEYS[1] .. ':lock'
rcall('SET', lock, ARGV[1], 'NX')
rcall('HSET', KEYS[3], 'owner', ARGV[1])
rcall('INCR', 'jobs:' .. ARGV[2])
`
	res := Analyze([]byte(src), Options{})
	if fmt.Sprint(res.KeysRead) != "[1 3]" {
		t.Errorf("KeysRead %v, want [1 3]", res.KeysRead)
	}
	if res.MaxKeysIndex != 3 || res.DynamicKeys || !res.Checked {
		t.Errorf("MaxKeysIndex %d DynamicKeys %v Checked %v", res.MaxKeysIndex, res.DynamicKeys, res.Checked)
	}
	if len(res.Keys) != 3 {
		t.Fatalf("keys %v", res.Keys)
	}
	if got := res.Keys[0].Key.Format(" .. "); got != `KEYS[1] .. ":lock"` {
		t.Errorf("first key %s", got)
	}
	var derived Finding
	for _, f := range res.Findings {
		if f.Rule == RuleDerivedKey {
			derived = f
		}
	}
	if !derived.HasKey || derived.KeysIndex != 1 || derived.Command != "SET" {
		t.Fatalf("LUA202 finding %+v", derived)
	}
	// Bound to a tagged Go key, the derived key provably shares its slot;
	// bound to an untagged one, it does not.
	bind := func(k string) func(slot.Hole) (slot.Key, bool) {
		return func(h slot.Hole) (slot.Key, bool) {
			if h.ID == KeysHole(1) {
				return slot.Literal(k), true
			}
			return slot.Key{}, false
		}
	}
	for key, want := range map[string]slot.RelationKind{"{user:1}": slot.SameSlot, "user:1": slot.DifferentSlots} {
		got := slot.Relate(derived.Key.Substitute(bind(key)), slot.Literal(key), slot.Options{}).Kind
		if got != want {
			t.Errorf("KEYS[1]=%q: %v, want %v", key, got, want)
		}
	}
	if res2 := Analyze([]byte(src), Options{}); res2.Hash != res.Hash {
		t.Error("hash differs for the same script")
	}
	// Check skips the hash, which only Analyze's callers read.
	if res.Hash != sha256.Sum256([]byte(src)) {
		t.Error("Analyze's hash is not the script's SHA-256")
	}
	// An assembled script's hash is the joined text's, as before.
	inc := "--- @include \"missing\"\n" + src
	if r := Analyze([]byte(inc), Options{Includes: true}); r.Hash == ([32]byte{}) {
		t.Error("Analyze of an assembled script has no hash")
	}
}

func TestDynamicKeys(t *testing.T) {
	for _, src := range []string{
		"return redis.call('DEL', unpack(KEYS))",
		"local i = tonumber(ARGV[1]) return redis.call('GET', KEYS[i])",
		"return #KEYS",
	} {
		res := Analyze([]byte(src), Options{})
		if !res.DynamicKeys {
			t.Errorf("%q: DynamicKeys false", src)
		}
	}
}

func TestFunctionsLibrary(t *testing.T) {
	src := `#!lua name=queue
local function push(keys, args)
  redis.call('LPUSH', keys[1], args[1])
  return redis.call('INCR', keys[1] .. ':count')
end
redis.register_function('queue_push', push)
redis.register_function{function_name = 'queue_len', callback = function(keys) return redis.call('LLEN', KEYS[1]) end, flags = {'no-writes'}}
`
	res := Analyze([]byte(src), Options{Function: true})
	if len(res.Functions) != 2 || res.Functions[0].Name != "queue_push" || res.Functions[1].Name != "queue_len" ||
		strings.Join(res.Functions[1].Flags, ",") != "no-writes" {
		t.Errorf("functions %+v", res.Functions)
	}
	got := strings.Join(rules(res.Findings), " ")
	if got != "LUA202 LUA302" {
		t.Errorf("findings %v", res.Findings)
	}
	if res.Findings[0].Function != "queue_push" || !strings.Contains(res.Findings[0].Message, `keys[1] .. ":count"`) {
		t.Errorf("LUA202 %+v", res.Findings[0])
	}
}

func TestKeysFromFilename(t *testing.T) {
	for name, want := range map[string]int{"moveToActive-11.lua": 11, "dir/addJob-9.lua": 9, "a-b-0.lua": 0} {
		if n, ok := KeysFromFilename(name); !ok || n != want {
			t.Errorf("%s: %d %v", name, n, ok)
		}
	}
	for _, name := range []string{"release.lua", "x-.lua", "-3.lua", "a-3.txt", "a-1234567.lua"} {
		if _, ok := KeysFromFilename(name); ok {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestNumKeysFromOptions(t *testing.T) {
	src := []byte("return redis.call('GET', KEYS[2])")
	if fs := Check(src, Options{}); len(fs) != 0 {
		t.Errorf("unknown key count: %v", fs)
	}
	f := only(t, Check(src, Options{NumKeys: 1, KeysKnown: true}), RuleKeysIndex)
	if f.KeysIndex != 2 {
		t.Errorf("KeysIndex %d", f.KeysIndex)
	}
}

// TestBudget: helpers calling each other many times must not blow up the
// analysis (each call is analysed with its arguments bound).
func TestBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("local function f0(k) return redis.call('GET', k) end\n")
	for i := 1; i < 30; i++ {
		b.WriteString("local function f" + itoa(i) + "(k) f" + itoa(i-1) + "(k) f" + itoa(i-1) + "(k) return f" + itoa(i-1) + "(k) end\n")
	}
	b.WriteString("return f29('literal')\n")
	var cut []Finding
	for _, f := range Check([]byte(b.String()), Options{}) {
		if f.Rule == RuleSyntax {
			cut = append(cut, f)
		}
	}
	if len(cut) != 1 || !strings.Contains(cut[0].Message, "only partly checked") {
		t.Errorf("want one note that the bound stopped the check, got %v", cut)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestColumns: a finding points at its own command name or operator, not
// the first one spelled alike on the line, and a command name on the line
// after its redis.call gets that line and its column.
func TestColumns(t *testing.T) {
	pad := strings.Repeat("redis.call('GET', KEYS[1]) ", 40)
	cases := []struct {
		src, want string
	}{
		// One long line: the literal key is the 41st GET.
		{"local a = 1 " + pad + "return redis.call('GET', 'config')", "1:" + strconv.Itoa(len("local a = 1 "+pad+"return redis.call(")+1) + " LUA201"},
		// The command name on the next line.
		{"return redis.call(\n  'SET',\n  'lit', 1)", "2:3 LUA201"},
		// The second < is the one on a maybe-nil value.
		{"local n = 1 if n < 2 and tonumber(redis.call('GET', KEYS[1])) < 5 then return 1 end", "1:63 LUA304"},
		// The second + on the line.
		{"local x = 1 + 2 + redis.call('GET', KEYS[1])", "1:17 LUA304"},
		// The command name in a variable (BullMQ's addJobInTargetList takes
		// it as a parameter): the finding points at that argument.
		{"local rcall = redis.call\nlocal function push(key, cmd, id)\n  rcall(cmd, key, id)\nend\npush(redis.call('HGET', KEYS[1], 'q') .. 'wait', 'RPUSH', ARGV[1])", "3:9 LUA201"},
		// Two calls of rcall on a line: the one whose name argument is b.
		{"local rcall = redis.call local a, b = 'GET', 'SET' rcall(a, KEYS[1]) rcall(b, 'lit', 1)", "1:76 LUA201"},
		// The name variable on the line after the call.
		{"local c = 'SET'\nredis.call(\n  c, 'lit', 1)", "3:3 LUA201"},
		// Three loops on one line (a script minified to one line): each
		// at its own keyword, so none is taken for a repeat of another.
		{"local a = redis.call('SMEMBERS', KEYS[1]) for _, x in ipairs(a) do redis.call('SREM', KEYS[2], x) end local n = 0 while n < #a do n = n + 1 redis.call('SREM', KEYS[2], a[n]) end for _, y in ipairs(a) do redis.call('SADD', KEYS[2], y) end", "1:22 LUA103, 1:43 LUA102, 1:115 LUA102, 1:179 LUA102"},
		// The nil comparison after another ==.
		{"local a = ARGV[1] == 'x' local v = redis.call('GET', KEYS[1]) if v == nil then return 1 end", "1:68 LUA303"},
		// A global read after a field of the same name.
		{"local t = {print = 1} return t.print .. print(1)", "1:41 LUA302"},
		{"local t = {} t.os = 1 local x = t.os or os.time()", "1:41 LUA302"},
		// The function keyword of the library write, not of the function
		// before it.
		{"local f = function() return 1 end function string.extend() return f() end", "1:35 LUA301"},
		// The global assigned, not the parameter of the same name.
		{"local g = function(counter) return counter end counter = g(1)", "1:48 LUA301"},
	}
	for _, c := range cases {
		fs := Check([]byte(c.src), Options{})
		var got []string
		for _, f := range fs {
			got = append(got, fmt.Sprintf("%d:%d %s", f.Pos.Line, f.Pos.Column, f.Rule))
		}
		if strings.Join(got, ", ") != c.want {
			t.Errorf("%.60q...: got %v, want %s", c.src, got, c.want)
		}
	}
}

// TestHelperReportedOnce: Check gives one finding at the helper and says
// how many other calls give it; Analyze keeps one per key for callers
// that bind keys per call site.
func TestHelperReportedOnce(t *testing.T) {
	src := []byte("local function touch(k)\n  redis.call('SET', k .. ':seen', 1)\nend\ntouch(KEYS[1])\ntouch(KEYS[2])\ntouch(KEYS[3])\n")
	f := only(t, Check(src, Options{}), RuleDerivedKey)
	if f.Pos.Line != 2 || !strings.Contains(f.Message, "carries a hash tag; the same for 2 other calls of this code (if every key") || strings.Contains(f.Message, ") (") {
		t.Errorf("finding %v", f)
	}
	if n := len(Analyze(src, Options{}).Findings); n != 3 {
		t.Errorf("Analyze kept %d findings, want one per key", n)
	}
}

// TestTemplates: each kind of template is named once, at its first
// placeholder; a modulo after a real syntax error elsewhere is not one.
func TestTemplates(t *testing.T) {
	cases := []struct{ src, want string }{
		{"local n = <%= limit %>\nreturn n\n", "ERB template"},
		{"return redis.call('GET', @key)\n", "@key parameters"},
		{"local batch = %d\nreturn batch\n", "printf-style template (%d"},
		{"redis.call('SET', KEYS[1], %s)\n", "printf-style template (%s"},
		{"local n = 10 % x\nlocal = 3\n", "syntax error near"},
	}
	for _, tc := range cases {
		f := only(t, Check([]byte(tc.src), Options{}), RuleSyntax)
		if !strings.Contains(f.Message, tc.want) {
			t.Errorf("%q: %s, want %q", tc.src, f.Message, tc.want)
		}
	}
}

// TestDataKeyNamesItsOrigin: a key taken from a JSON payload names where
// the payload came from, KEYS or ARGV.
func TestDataKeyNamesItsOrigin(t *testing.T) {
	for _, tc := range []struct{ src, want, not string }{
		{"local job = cjson.decode(KEYS[1])\nredis.call('GET', job.key)\n",
			"GET key is decoded from the text of a KEYS element, not passed in KEYS", "ARGV"},
		{"local job = cjson.decode(KEYS[1])\nredis.call('GET', 'q:' .. job.queue)\n",
			`GET key "q:" .. data decoded from KEYS is built from data decoded from the text of a KEYS element, not passed in KEYS`, "ARGV"},
		{"local job = cjson.decode(ARGV[1])\nredis.call('GET', job.key)\n",
			"GET key comes from ARGV data, not KEYS", "decoded from the text of a KEYS"},
		{"local job = cjson.decode(ARGV[1])\nredis.call('GET', 'q:' .. job.queue)\n",
			`GET key "q:" .. data from ARGV comes from ARGV, not KEYS`, "KEYS element"},
	} {
		f := only(t, Check([]byte(tc.src), Options{}), RuleUndeclaredKey)
		if !strings.Contains(f.Message, tc.want) || strings.Contains(f.Message, tc.not) {
			t.Errorf("%q: message %q, want it to say %q and not %q", tc.src, f.Message, tc.want, tc.not)
		}
	}
}

// TestDecodedDataNamesItsSource: a loop over a list decoded from ARGV is
// bounded by that list, not by #ARGV, and a key decoded from a literal
// JSON string is a literal of the script, not ARGV data.
func TestDecodedDataNamesItsSource(t *testing.T) {
	src := "local ids = cjson.decode(ARGV[1])\nfor _, id in ipairs(ids) do\n  redis.call('SREM', KEYS[1], id)\nend\nfor i = 1, #ids do\n  redis.call('SADD', KEYS[2], ids[i])\nend\n"
	fs := Check([]byte(src), Options{ArgLoops: true})
	if len(fs) != 2 {
		t.Fatalf("findings %v, want the two loops", fs)
	}
	for _, f := range fs {
		if f.Rule != RuleInputBound || !strings.Contains(f.Message, "bounded by the length of a list decoded from the request's arguments") || strings.Contains(f.Message, "#ARGV") {
			t.Errorf("finding %v", f)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"local cfg = cjson.decode('{\"q\":\"jobs:q1\"}')\nredis.call('LPUSH', cfg.q, ARGV[1])\n",
			"LPUSH key is decoded from a literal in the script, not passed in KEYS"},
		{"local cfg = cjson.decode('{\"p\":\"jobs:\"}')\nredis.call('LPUSH', cfg.p .. 'wait', ARGV[1])\n",
			`LPUSH key data decoded from a literal .. "wait" is decoded from a literal in the script, not passed in KEYS`},
	} {
		f := only(t, Check([]byte(tc.src), Options{}), RuleUndeclaredKey)
		if !strings.Contains(f.Message, tc.want) || strings.Contains(f.Message, "ARGV") {
			t.Errorf("%q: message %q, want it to say %q and not ARGV", tc.src, f.Message, tc.want)
		}
	}
}

// TestCausesGrouped: Check gives one finding per cause where Analyze
// gives one per place: the keys derived from one KEYS[i], the reads of
// globals a prelude would define, and a file that is no Redis script.
func TestCausesGrouped(t *testing.T) {
	derived := "redis.call('SET', KEYS[1] .. ':lock', ARGV[1])\nredis.call('HSET', KEYS[1] .. ':meta', 'at', 1)\nredis.call('HSET', KEYS[2] .. ':meta', 'at', 1)\nredis.call('DEL', KEYS[1] .. ':old')\n"
	fs := Check([]byte(derived), Options{})
	if len(fs) != 2 || fs[0].Pos.Line != 1 || fs[1].Pos.Line != 3 {
		t.Fatalf("findings %v, want one for KEYS[1] at line 1 and one for KEYS[2] at line 3", fs)
	}
	if !strings.Contains(fs[0].Message, "so are the keys this file derives from KEYS[1] on lines 2 and 4") || !strings.Contains(fs[0].Message, "-keys-tagged") {
		t.Errorf("KEYS[1]: %s", fs[0].Message)
	}
	if strings.Contains(fs[1].Message, "so are") {
		t.Errorf("KEYS[2] has no other key: %s", fs[1].Message)
	}
	if n := len(Analyze([]byte(derived), Options{}).Findings); n != 4 {
		t.Errorf("Analyze kept %d findings, want one per key for callers that bind keys", n)
	}

	// A literal tag before KEYS[1] is another cause: -keys-tagged does
	// not help it, so it is its own finding, without the hint.
	other := "redis.call('SET', KEYS[1] .. ':lock', 1)\nredis.call('INCR', '{stats}' .. KEYS[1])\nredis.call('DEL', KEYS[1] .. ':old')\n"
	fs = Check([]byte(other), Options{})
	if len(fs) != 2 || fs[1].Pos.Line != 2 || strings.Contains(fs[1].Message, "-keys-tagged") || !strings.Contains(fs[0].Message, "on line 3 (if every key") {
		t.Errorf("literal tag before KEYS[1]: %v", fs)
	}

	body := caseSource(t, "LUA302/bad_body_without_prelude.lua")
	f := only(t, Check([]byte(body), Options{}), RuleMissingGlobal)
	for _, want := range []string{"4 globals are read and never defined in this file: num_static_argv (line 6), process_tick (line 7), now (line 7), settings_key (line 8)", "'num_static_argv'", "-prelude"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q lacks %q", f.Message, want)
		}
	}
	prelude := "local num_static_argv = 1\nlocal settings_key = KEYS[1]\nlocal now = 1\nlocal process_tick = function(now, always) return { capacity = 1 } end\n"
	if fs := Check([]byte(body), Options{Prelude: prelude, PreludeFile: "header.lua"}); len(fs) != 0 {
		t.Errorf("with the prelude: %v", fs)
	}
	one := "local v = redis.call('GET', KEYS[1])\nif v then return limit end\nreturn limit\n"
	f = only(t, Check([]byte(one), Options{}), RuleMissingGlobal)
	if f.Pos.Line != 2 || !strings.HasSuffix(f.Message, "(read again on line 3)") {
		t.Errorf("one global: %v", f)
	}

	lib := caseSource(t, "LUA001/bad_client_library.lua")
	f = only(t, Check([]byte(lib), Options{}), RuleSyntax)
	if !strings.HasPrefix(f.Message, "not a Redis script: it never calls redis.call or redis.pcall and uses ngx and require") {
		t.Errorf("client library: %v", f)
	}
}

// TestUndeclaredKeysGrouped: the LUA201 keys a file builds from one
// cause are one finding at the first, naming the other lines and what
// decides their slot; other causes keep their own findings.
func TestUndeclaredKeysGrouped(t *testing.T) {
	fs := Check([]byte(caseSource(t, "LUA201/bad_grouped_causes.lua")), Options{})
	want := map[int]string{
		9:  "so are the keys this file builds from ARGV[1] on lines 10, 11 and 18: they share the declared keys' slot only if ARGV[1] carries their hash tag (if every key and key prefix the scripts get carries the project's hash tag, say so with -keys-tagged",
		13: "ZADD key ARGV[2] .. \":stalled\" comes from ARGV, not KEYS: on a cluster it may live in another slot; it shares the declared keys' slot only if ARGV[2] carries their hash tag",
		20: "so are the keys this file builds from the same reply on lines 21 and 22",
		27: "HGET key is read from the reply of LINDEX, not passed in KEYS: on a cluster it may live in another slot",
		33: "EXISTS key comes from ARGV data, not KEYS: on a cluster it may live in another slot; so are the keys this file builds from the same data on line 34",
	}
	for _, f := range fs {
		if w, ok := want[f.Pos.Line]; ok && !strings.Contains(f.Message, w) {
			t.Errorf("line %d: %q lacks %q", f.Pos.Line, f.Message, w)
		}
		delete(want, f.Pos.Line)
		if f.Pos.Line == 15 && strings.Contains(f.Message, "so are") {
			t.Errorf("a literal tag before the prefix is its own cause: %s", f.Message)
		}
		if (f.Pos.Line == 27 || f.Pos.Line == 36) && strings.Contains(f.Message, "so are") {
			t.Errorf("another reply, or another field of the payload, is its own cause: %s", f.Message)
		}
	}
	for line := range want {
		t.Errorf("no finding at line %d", line)
	}
	if n := len(Analyze([]byte(caseSource(t, "LUA201/bad_grouped_causes.lua")), Options{}).Findings); n != 13 {
		t.Errorf("Analyze kept %d findings, want one per key for callers that bind keys", n)
	}

	fs = Check([]byte(caseSource(t, "LUA201/bad_grouped_helper_param.lua")), Options{})
	if len(fs) != 2 || !strings.HasSuffix(fs[0].Message, "; so are the keys this file builds from queueKey on line 7") ||
		!strings.HasSuffix(fs[1].Message, "; so are the keys this file builds from the same reply on line 18") {
		t.Errorf("helper parameter: %v", fs)
	}
}

// TestKeysTaggedWholeKey: -keys-tagged quiets the keys built on a prefix
// the caller passes in ARGV, not a whole key passed there (a parent job's
// key), nor the keys the file builds on that whole key; the finding says
// why the switch leaves it.
func TestKeysTaggedWholeKey(t *testing.T) {
	src := `local jobKey = ARGV[1] .. ARGV[2]
redis.call('HSET', jobKey, 'state', 'added')
redis.call('SET', jobKey .. ':lock', 'w1')
redis.call('EXISTS', ARGV[3])
redis.call('SADD', ARGV[3] .. ':dependencies', jobKey)
local args = cjson.decode(ARGV[4])
redis.call('HSET', args.prefix .. ARGV[2], 'n', 1)
redis.call('SADD', args.parentKey, jobKey)
return redis.call('LPUSH', KEYS[1], ARGV[2])
`
	fs := Check([]byte(src), Options{KeysTagged: true})
	if len(fs) != 2 || fs[0].Pos.Line != 4 || fs[1].Pos.Line != 8 {
		t.Fatalf("findings %v, want ARGV[3] at line 4 (with line 5) and the payload's parent key at line 8", fs)
	}
	for _, f := range fs {
		if f.Rule != RuleUndeclaredKey || !strings.Contains(f.Message, "-keys-tagged does not cover a whole key passed in ARGV") {
			t.Errorf("%v: want LUA201 saying why -keys-tagged leaves it", f)
		}
	}
	if !strings.Contains(fs[0].Message, "so are the keys this file takes or builds from ARGV[3] on line 5") {
		t.Errorf("line 4: %s", fs[0].Message)
	}
	// Without the switch every cause is printed, the whole keys with the
	// same reason and no offer of a switch that would not quiet them.
	fs = Check([]byte(src), Options{})
	if len(fs) != 4 {
		t.Fatalf("without -keys-tagged: %v", fs)
	}
	for _, f := range fs {
		whole := f.Pos.Line == 4 || f.Pos.Line == 8
		if whole != strings.Contains(f.Message, "-keys-tagged does not cover") || whole == strings.Contains(f.Message, "say so with -keys-tagged") && f.Pos.Line == 1 {
			t.Errorf("line %d: %s", f.Pos.Line, f.Message)
		}
	}
	// Keys spread from ARGV are whole keys too.
	f := only(t, Check([]byte("redis.call('DEL', unpack(ARGV))\n"), Options{KeysTagged: true}), RuleUndeclaredKey)
	if !strings.Contains(f.Message, "-keys-tagged does not cover whole keys passed in ARGV") {
		t.Errorf("spread ARGV with -keys-tagged: %s", f.Message)
	}
	// Analyze judges each key alone: the keys built on a prefix are
	// quiet there, and the whole keys are not.
	var lines []int
	for _, f := range Analyze([]byte(src), Options{KeysTagged: true}).Findings {
		lines = append(lines, f.Pos.Line)
	}
	if !slices.Equal(lines, []int{4, 8}) {
		t.Errorf("Analyze with -keys-tagged: findings at lines %v, want 4 and 8", lines)
	}
}

// TestJoinKeys: a key set on two paths keeps what decides its slot when
// both paths agree on it, and nothing otherwise.
func TestJoinKeys(t *testing.T) {
	argv1 := slot.HoleKey(ArgvHole(1), "ARGV[1]")
	argv2 := slot.HoleKey(ArgvHole(2), "ARGV[2]")
	keys1 := slot.HoleKey(KeysHole(1), "KEYS[1]")
	lit := slot.Literal
	for _, c := range []struct {
		name string
		a, b slot.Key
		want string // the joined key, "" when there is none
	}{
		{"prefix then two suffixes", slot.Concat(argv1, lit(":a")), slot.Concat(argv1, lit(":b")), `ARGV[1] .. (":a" or ":b")`},
		{"closed literal tag first", slot.Concat(lit("{q}:"), argv1, lit(":a")), slot.Concat(lit("{q}:"), argv1, argv2), `"{q}:" .. ARGV[1] .. (":a" or ARGV[2])`},
		{"optional suffix of KEYS[1]", keys1, slot.Concat(keys1, lit(":g")), `KEYS[1] .. ("" or ":g")`},
		{"open tag before the rest", slot.Concat(lit("q:{"), argv1, lit("}:a")), slot.Concat(lit("q:{"), argv1, lit(":b")), ""},
		{"first holes differ", slot.Concat(argv1, lit(":a")), slot.Concat(argv2, lit(":a")), ""},
		{"whole ARGV key on one path", argv1, slot.Concat(argv1, lit(":a")), ""},
		{"literals only", lit("a:1"), lit("a:2"), ""},
	} {
		var h holeCounter
		k, ok := joinKeys(c.a, c.b, &h)
		got := ""
		if ok {
			got = k.Format(" .. ")
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// longAndChain is a condition of n operands joined by and, its last a
// redis.call reply tested for truth (LUA305).
func longAndChain(n int) string {
	return "local a = KEYS[1]\nif " + strings.Repeat("a and ", n-1) + "redis.call('EXISTS', a) then return 1 end\nreturn 0\n"
}

// TestLongAndChain: a condition near the tree's depth bound is checked,
// and its one truth test of an integer reply reported once.
func TestLongAndChain(t *testing.T) {
	f := only(t, Check([]byte(longAndChain(4900)), Options{}), RuleTruthTest)
	if f.Pos.Line != 2 {
		t.Errorf("LUA305 at %v, want line 2", f.Pos)
	}
}
