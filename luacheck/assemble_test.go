package luacheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
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

func findingPlaces(fs []Finding, base string) []string {
	var out []string
	for _, f := range fs {
		p := f.Pos
		p.File = strings.TrimPrefix(p.File, base+string(filepath.Separator))
		out = append(out, p.String()+" "+f.Rule)
	}
	return out
}

// TestIncludes: BullMQ-style includes are resolved relative to the
// including file, each file once, and findings land in the file and line
// where their code is.
func TestIncludes(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"moveToActive-2.lua":  "--[[ move a job ]]\n--- @include \"includes/addJob\"\n--- @include \"includes/stats\"\nlocal id = addJob(KEYS[1], ARGV[1])\nbump(KEYS[2])\nreturn id\n",
		"includes/addJob.lua": "--- @include \"stats\"\nlocal function addJob(q, data)\n  local id = redis.call('INCR', q .. ':id')\n  redis.call('HSET', 'job:' .. id, 'data', data)\n  bump(q)\n  return id\nend\n",
		"includes/stats.lua":  "local function bump(q)\n  return redis.call('INCR', 'stats:total')\nend\n",
		"broken.lua":          "--- @include \"includes/missing\"\nreturn 1\n",
		"partial.lua":         "--- @include \"includes/missing\"\nlocal id = addJob(KEYS[1])\nreturn {id, os.time()}\n",
		"both.lua":            "--- @include \"includes/h1\"\n--- @include \"includes/h2\"\nreturn 1\n",
		"includes/h1.lua":     "--- @include \"nope\"\nlocal function f() end\n",
		"includes/h2.lua":     "--- @include \"nope\"\nlocal function g() end\n",
		"twice.lua":           "--- @include \"includes/nope1\"\n--- @include \"includes/stats\"\n--- @include \"includes/nope2\"\nreturn bump(KEYS[1])\n",
	})
	main := filepath.Join(dir, "moveToActive-2.lua")
	src, _ := os.ReadFile(main)
	got := findingPlaces(Check(src, Options{Filename: main, Includes: true}), dir)
	want := []string{
		"includes/addJob.lua:3:25 LUA202", // INCR q .. ':id'
		"includes/addJob.lua:4:14 LUA201", // HSET 'job:' .. id
		"includes/stats.lua:2:21 LUA201",  // INCR 'stats:total'
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("with includes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Unresolved, the helpers are missing globals of the script itself:
	// one finding names both.
	fs := Check(src, Options{Filename: main})
	got = findingPlaces(fs, dir)
	if strings.Join(got, " ") != "moveToActive-2.lua:4:12 LUA302" || !strings.Contains(fs[0].Message, "addJob (line 4), bump (line 5)") {
		t.Errorf("without includes: %v", fs)
	}
	broken := filepath.Join(dir, "broken.lua")
	src, _ = os.ReadFile(broken)
	f := only(t, Check(src, Options{Filename: broken, Includes: true}), RuleSyntax)
	if f.Pos.File != broken || f.Pos.Line != 1 || !strings.Contains(f.Message, "does not exist") {
		t.Errorf("missing include: %v", f)
	}
	// The missing file may define addJob: only its LUA001 says so, but os
	// is missing whatever it defines.
	partial := filepath.Join(dir, "partial.lua")
	src, _ = os.ReadFile(partial)
	got = findingPlaces(Check(src, Options{Filename: partial, Includes: true}), dir)
	if strings.Join(got, " ") != "partial.lua:1:5 LUA001 partial.lua:3:13 LUA302" {
		t.Errorf("missing include, names it may define: %v", got)
	}
	// Two missing includes of one file are one finding that names both.
	twice := filepath.Join(dir, "twice.lua")
	src, _ = os.ReadFile(twice)
	fs = Check(src, Options{Filename: twice, Includes: true})
	if got := findingPlaces(fs, dir); strings.Join(got, " ") != "includes/stats.lua:2:21 LUA201 twice.lua:1:5 LUA001" {
		t.Errorf("two missing includes: %v", got)
	} else if m := fs[1].Message; !strings.HasPrefix(m, "2 included files do not exist: ") || !strings.Contains(m, "nope1.lua (line 1), ") || !strings.Contains(m, "nope2.lua (line 3)") {
		t.Errorf("two missing includes: %s", m)
	}
	// Two helpers that include the same missing file each say so, as
	// each does when it is checked alone.
	both := filepath.Join(dir, "both.lua")
	src, _ = os.ReadFile(both)
	if got := findingPlaces(Check(src, Options{Filename: both, Includes: true}), dir); strings.Join(got, " ") != "includes/h1.lua:1:5 LUA001 includes/h2.lua:1:5 LUA001" {
		t.Errorf("one missing file included twice: %v", got)
	}
}

// TestPreludeAndGlobals: a prelude joined before the body defines its
// helpers; findings in either map back; -globals names are defined.
func TestPreludeAndGlobals(t *testing.T) {
	prelude := "local function lockKey(k)\n  return k .. ':lock'\nend\nlocal unused = redis.call('GET', 'config')\n"
	body := "#!lua flags=no-writes\nlocal k = lockKey(KEYS[1])\nreturn redis.call('GET', k)\n"
	fs := Analyze([]byte(body), Options{Filename: "body.lua", Prelude: prelude, PreludeFile: "prelude.lua"})
	got := findingPlaces(fs.Findings, "")
	want := "body.lua:3:19 LUA202 prelude.lua:4:27 LUA201"
	if strings.Join(got, " ") != want {
		t.Errorf("with prelude: %v, want %s", got, want)
	}
	if strings.Join(fs.Flags, ",") != "no-writes" {
		t.Errorf("shebang flags after a prelude: %v", fs.Flags)
	}
	if got := rules(Check([]byte(body), Options{Filename: "body.lua"})); strings.Join(got, " ") != "LUA302" {
		t.Errorf("without prelude: %v", got)
	}
	if got := Check([]byte(body), Options{Filename: "body.lua", Globals: "lockKey, other"}); len(got) != 0 {
		t.Errorf("with globals: %v", got)
	}
}

// TestIncludedPath: an included file is named the way its includer is,
// "./" kept, and a file that includes itself, however spelled, is one
// file.
func TestIncludedPath(t *testing.T) {
	sep := string(filepath.Separator)
	cases := []struct{ from, name, want string }{
		{"./q/a.lua", "includes/b", "./q/includes/b.lua"},
		{"q/a.lua", "includes/b", "q/includes/b.lua"},
		{"./a.lua", "b.lua", "./b.lua"},
		{"./q/a.lua", "../../b", "../b.lua"},
		{"./q/a.lua", "/lib/b", "/lib/b.lua"},
	}
	for _, c := range cases {
		if got := includedPath(filepath.FromSlash(c.from), filepath.FromSlash(c.name)); got != filepath.FromSlash(c.want) {
			t.Errorf("includedPath(%q, %q) = %q, want %q", c.from, c.name, got, c.want)
		}
	}
	dir := writeTree(t, map[string]string{"q/a.lua": "--- @include \"a\"\n--- @include \"../q/a\"\nreturn redis.call('GET', 'x')\n"})
	t.Chdir(dir)
	src, _ := os.ReadFile("q/a.lua")
	fs := Check(src, Options{Filename: "." + sep + filepath.Join("q", "a.lua"), Includes: true})
	if got := findingPlaces(fs, ""); strings.Join(got, " ") != "./q/a.lua:3:19 LUA201" {
		t.Errorf("a file that includes itself: %v", got)
	}
}
