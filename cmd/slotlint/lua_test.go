package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/luacheck"
)

func runLuaCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"lua"}, args...), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLuaTextOutputAndExitCodes(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"clean.lua":        "return redis.call('GET', KEYS[1])\n",
		"sub/lock.lua":     "local k = KEYS[1] .. ':lock'\nreturn redis.call('SET', k, ARGV[1], 'NX')\n",
		"sub/notes.txt":    "redis.call('GET', 'x')\n",
		"sub/deeper/x.lua": "count = 1\n",
	})
	code, out, errOut := runLuaCmd(t, filepath.Join(dir, "clean.lua"))
	if code != 0 || out != "" {
		t.Errorf("clean file: code %d, output %q %q", code, out, errOut)
	}
	code, out, _ = runLuaCmd(t, dir)
	if code != 1 {
		t.Errorf("directory: code %d, want 1", code)
	}
	want := filepath.Join(dir, "sub/deeper/x.lua") + ":1:1: LUA301 assignment to global variable count: Redis's sandbox refuses to create globals (\"Attempt to modify a readonly table\"); declare it local\n" +
		filepath.Join(dir, "sub/lock.lua") + ":2:19: LUA202 SET key KEYS[1] .. \":lock\" is derived from KEYS[1], not passed in KEYS: it shares KEYS[1]'s slot only if KEYS[1] carries a hash tag" +
		" (if every key and key prefix the scripts get carries the project's hash tag, say so with -keys-tagged or a \"-- slotlint:keys-tagged\" comment)\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

func TestLuaJSON(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.lua": "local v = redis.call('GET', KEYS[1])\nif v == nil then return 0 end\n"})
	code, out, _ := runLuaCmd(t, "-json", dir)
	if code != 1 {
		t.Fatalf("code %d", code)
	}
	var got []map[string]string
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(got) != 1 || got[0]["posn"] != filepath.Join(dir, "a.lua")+":2:6" || got[0]["category"] != "LUA303" ||
		!strings.HasPrefix(got[0]["message"], "the reply of GET is compared with nil") || len(got[0]) != 3 {
		t.Errorf("JSON %v", got)
	}
	code, out, _ = runLuaCmd(t, "-json", writeFiles(t, map[string]string{"ok.lua": "return 1"}))
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("clean JSON: code %d %q", code, out)
	}
}

func TestLuaKeysFlags(t *testing.T) {
	dir := writeFiles(t, map[string]string{"moveToActive-2.lua": "return redis.call('GET', KEYS[3])\n"})
	file := filepath.Join(dir, "moveToActive-2.lua")
	if code, out, _ := runLuaCmd(t, file); code != 0 {
		t.Errorf("keys unknown: %d %s", code, out)
	}
	if code, out, _ := runLuaCmd(t, "-keys", "2", file); code != 1 || !strings.Contains(out, "LUA203 KEYS[3] is read but the script is called with 2 keys") {
		t.Errorf("-keys 2: %d %s", code, out)
	}
	if code, out, _ := runLuaCmd(t, "-keys-from-name", file); code != 1 || !strings.Contains(out, "called with 2 keys") {
		t.Errorf("-keys-from-name: %d %s", code, out)
	}
	if code, _, _ := runLuaCmd(t, "-keys", "3", file); code != 0 {
		t.Errorf("-keys 3: %d", code)
	}
}

func TestLuaFunctionAndReadOnly(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"lib.lua":  "#!lua name=lib\nredis.register_function('f', function(keys, args) return redis.call('GET', KEYS[1]) end)\n",
		"read.lua": "return redis.call('DEL', KEYS[1])\n",
		"args.lua": "for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end\n",
		"list.lua": "return redis.call('LRANGE', KEYS[1], 0, -1)\n",
	})
	// Detected as a library from its shebang: KEYS is not a global there.
	if code, out, _ := runLuaCmd(t, filepath.Join(dir, "lib.lua")); code != 1 || !strings.Contains(out, "LUA302 KEYS is not a global in a function library") {
		t.Errorf("library: %d %s", code, out)
	}
	if code, out, _ := runLuaCmd(t, "-function", filepath.Join(dir, "read.lua")); code != 1 || !strings.Contains(out, "#!lua name=") {
		t.Errorf("-function: %d %s", code, out)
	}
	if code, out, _ := runLuaCmd(t, "-readonly", filepath.Join(dir, "read.lua")); code != 1 || !strings.Contains(out, "LUA403 DEL writes") {
		t.Errorf("-readonly: %d %s", code, out)
	}
	// A loop over the request's own keys is quiet unless asked for.
	if code, out, _ := runLuaCmd(t, filepath.Join(dir, "args.lua")); code != 0 {
		t.Errorf("args loop by default: %d %s", code, out)
	}
	if code, out, _ := runLuaCmd(t, "-arg-loops", filepath.Join(dir, "args.lua")); code != 1 || !strings.Contains(out, "LUA102 for loop is bounded by #KEYS") {
		t.Errorf("-arg-loops: %d %s", code, out)
	}
	// -disable and -enable pick rules as the analyzer's flags do.
	both := filepath.Join(dir, "read.lua") // DEL (LUA403 with -readonly) of KEYS[1]
	if code, out, _ := runLuaCmd(t, "-readonly", "-disable", "lua403", both); code != 0 || out != "" {
		t.Errorf("-disable LUA403: %d %q", code, out)
	}
	if code, out, _ := runLuaCmd(t, "-readonly", "-enable", "LUA201", both); code != 0 || out != "" {
		t.Errorf("-enable LUA201 only: %d %q", code, out)
	}
	if code, out, _ := runLuaCmd(t, "-readonly", "-enable", "LUA403", both); code != 1 || !strings.Contains(out, "LUA403") {
		t.Errorf("-enable LUA403: %d %q", code, out)
	}
	if code, _, errOut := runLuaCmd(t, "-disable", "LUA999", both); code != 2 || !strings.Contains(errOut, `disable names unknown rule "LUA999"`) {
		t.Errorf("-disable LUA999: %d %q", code, errOut)
	}
	// SL1202 carries the Lua findings in Go code: turning it off here
	// would silence every Lua rule, so Go rules are refused.
	if code, _, errOut := runLuaCmd(t, "-disable", "SL1202", both); code != 2 || !strings.Contains(errOut, "SL1202 is a rule of Go code") {
		t.Errorf("-disable SL1202: %d %q", code, errOut)
	}
	// So is a whole read the script returns as its reply.
	if code, out, _ := runLuaCmd(t, filepath.Join(dir, "list.lua")); code != 0 {
		t.Errorf("returned read by default: %d %s", code, out)
	}
	if code, out, _ := runLuaCmd(t, "-returned-reads", filepath.Join(dir, "list.lua")); code != 1 || !strings.Contains(out, "LUA103 LRANGE 0 -1 reads to the end") {
		t.Errorf("-returned-reads: %d %s", code, out)
	}
}

func TestLuaUsageAndErrors(t *testing.T) {
	if code, _, errOut := runLuaCmd(t); code != 2 || !strings.Contains(errOut, "usage: slotlint lua") {
		t.Errorf("no files: %d %q", code, errOut)
	}
	if code, _, _ := runLuaCmd(t, "-bogus", "x.lua"); code != 2 {
		t.Errorf("bad flag: %d", code)
	}
	if code, _, _ := runLuaCmd(t, "-keys", "-5", "x.lua"); code != 2 {
		t.Errorf("bad -keys: %d", code)
	}
	if code, _, errOut := runLuaCmd(t, filepath.Join(t.TempDir(), "missing.lua")); code != 2 || !strings.Contains(errOut, "missing.lua") {
		t.Errorf("missing file: %d %q", code, errOut)
	}
	// -arg-loops says which loops it adds: the request's arguments
	// themselves and payloads decoded from them.
	if code, _, errOut := runLuaCmd(t, "-h"); code != 0 || !strings.Contains(errOut, "ipairs(ARGV), and lists decoded from ARGV or from a KEYS element") {
		t.Errorf("-h: %d, -arg-loops help does not name decoded payloads:\n%s", code, errOut)
	}
	code, out, _ := runLuaCmd(t, "-rules")
	if code != 0 {
		t.Errorf("-rules: %d", code)
	}
	for _, id := range []string{"LUA001", "LUA101", "LUA201", "LUA304", "LUA403", "slotlint:ignore"} {
		if !strings.Contains(out, id) {
			t.Errorf("-rules does not mention %s", id)
		}
	}
}

// TestLuaCorpus runs the command over the repository's rule cases: the
// clean scripts give nothing, the whole tree gives findings.
func TestLuaCorpus(t *testing.T) {
	if code, out, _ := runLuaCmd(t, "../../testdata/lua/clean"); code != 0 {
		t.Errorf("clean corpus: %d\n%s", code, out)
	}
	if code, _, _ := runLuaCmd(t, "../../testdata/lua"); code != 1 {
		t.Errorf("rule cases: %d", code)
	}
}

// TestLuaNothingToCheck: an empty file and a directory without scripts
// are named on stderr (not a silent success), and a file over the size
// limit is an error of the input with its real size, not a finding.
func TestLuaNothingToCheck(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"empty.lua":      "",
		"noscripts/a.md": "# not a script\n",
		"ok.lua":         "return redis.call('GET', KEYS[1])\n",
	})
	code, stdout, stderr := runLuaCmd(t, filepath.Join(dir, "empty.lua"), filepath.Join(dir, "noscripts"), filepath.Join(dir, "ok.lua"))
	if code != 0 || stdout != "" {
		t.Errorf("exit %d, want 0 with no findings\nstdout:\n%s", code, stdout)
	}
	for _, want := range []string{"empty.lua is empty: nothing to check", "noscripts holds no .lua files: nothing to check"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	big := filepath.Join(dir, "big.lua")
	size := luacheckLimit() + 1000
	if err := os.WriteFile(big, bytes.Repeat([]byte("-- padding\n"), size/11+1), 0o644); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(big)
	code, stdout, stderr = runLuaCmd(t, "-json", big, filepath.Join(dir, "ok.lua"))
	if code != 2 || strings.TrimSpace(stdout) != "[]" {
		t.Errorf("over the limit: exit %d, want 2 and no finding\nstdout:\n%s", code, stdout)
	}
	if want := fmt.Sprintf("big.lua: %d bytes", info.Size()); !strings.Contains(stderr, want) || !strings.Contains(stderr, "over the checker's limit") {
		t.Errorf("stderr lacks %q and the limit:\n%s", want, stderr)
	}
}

// BenchmarkLua runs the lua command in process over the rule cases, as
// "slotlint lua testdata/lua" does, output included.
func BenchmarkLua(b *testing.B) {
	files, err := luaFiles([]string{"../../testdata/lua"}, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, f := range files {
		info, err := os.Stat(f)
		if err != nil {
			b.Fatal(err)
		}
		size += info.Size()
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"lua", "../../testdata/lua"}, strings.NewReader(""), &stdout, &stderr); code != 1 {
			b.Fatalf("exit %d: %s", code, stderr.String())
		}
	}
	b.ReportMetric(float64(len(files))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// TestLuaKeysTagged: -keys-tagged quiets LUA202 for keys that take
// KEYS[i]'s tag, not for a key whose own literal tag comes first.
func TestLuaKeysTagged(t *testing.T) {
	dir := writeFiles(t, map[string]string{"q.lua": "redis.call('SET', KEYS[1] .. ':lock', 1)\nreturn redis.call('SET', '{stats}' .. KEYS[1], 1)\n"})
	file := filepath.Join(dir, "q.lua")
	code, out, _ := runLuaCmd(t, file)
	if code != 1 || strings.Count(out, "LUA202") != 2 {
		t.Errorf("without the flag: code %d\n%s", code, out)
	}
	code, out, _ = runLuaCmd(t, "-keys-tagged", file)
	if code != 1 || strings.Count(out, "LUA202") != 1 || !strings.HasPrefix(out, file+":2:") {
		t.Errorf("with -keys-tagged: code %d\n%s", code, out)
	}
}

// TestLuaMultiFile: -prelude, -globals and includes (on by default) give
// the helpers' definitions, and findings name the file they are in.
func TestLuaMultiFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"helpers.lua":            "local function lockKey(k) return k .. ':lock' end\n",
		"body.lua":               "return redis.call('GET', lockKey(KEYS[1]))\n",
		"queue/push.lua":         "--- @include \"includes/key\"\nreturn redis.call('LPUSH', jobKey(ARGV[1]), 1)\n",
		"queue/includes/key.lua": "local function jobKey(id) return 'job:' .. id end\n",
	})
	body := filepath.Join(dir, "body.lua")
	if code, out, _ := runLuaCmd(t, body); code != 1 || !strings.Contains(out, "LUA302 global lockKey") {
		t.Errorf("alone: %d %s", code, out)
	}
	code, out, _ := runLuaCmd(t, "-prelude", filepath.Join(dir, "helpers.lua"), body)
	if code != 1 || !strings.HasPrefix(out, body+":1:19: LUA202") || strings.Count(out, "\n") != 1 {
		t.Errorf("with -prelude: %d %s", code, out)
	}
	if code, out, _ := runLuaCmd(t, "-globals", "lockKey", body); code != 0 {
		t.Errorf("with -globals: %d %s", code, out)
	}
	push := filepath.Join(dir, "queue/push.lua")
	code, out, _ = runLuaCmd(t, push)
	if code != 1 || !strings.HasPrefix(out, push+":2:19: LUA201 LPUSH key \"job:\" .. ARGV[1]") {
		t.Errorf("includes: %d %s", code, out)
	}
	if code, out, _ := runLuaCmd(t, "-includes=false", push); !strings.Contains(out, "LUA302 global jobKey") || code != 1 {
		t.Errorf("-includes=false: %d %s", code, out)
	}
	if code, _, errOut := runLuaCmd(t, "-prelude", filepath.Join(dir, "nope.lua"), body); code != 2 || !strings.Contains(errOut, "-prelude") {
		t.Errorf("missing prelude: %d %s", code, errOut)
	}
}

// TestLuaPathsAsNamed: findings in an included helper, and in files found
// in a directory, name their file as the user named the script or the
// directory ("./queue/..."), so the path opens from where they ran.
func TestLuaPathsAsNamed(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"queue/push.lua":         "--- @include \"includes/key\"\nreturn touch(ARGV[1])\n",
		"queue/includes/key.lua": "local function touch(id)\n  return redis.call('GET', 'job:' .. id)\nend\n",
	})
	t.Chdir(dir)
	for _, arg := range []string{"./queue/push.lua", "./queue", "queue"} {
		code, out, _ := runLuaCmd(t, arg)
		want := strings.TrimSuffix(arg, "/push.lua") + "/includes/key.lua:2:21: LUA201 GET key \"job:\" .. ARGV[1]"
		if code != 1 || !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 1 {
			t.Errorf("slotlint lua %s: %d\n%s\nwant %s", arg, code, out, want)
		}
	}
}

func luacheckLimit() int { return luacheck.DefaultMaxBytes }
