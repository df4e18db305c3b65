package luacheck

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// spliceFiles writes a small library in BullMQ's layout: commands that
// include helpers, which include others.
func spliceFiles(t *testing.T) (dir string, cmds []string) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"includes/getKey.lua": "--[[\n  A helper with a nested include.\n]]\n--- @include \"suffix\"\n" +
			"local function getKey(prefix, id)\n  return suffix(prefix .. id)\nend\n",
		"includes/suffix.lua": "local function suffix(k)\n  if k then\n    return k .. ':s'\n  end\n  return undefinedName\nend\n",
		"includes/loop.lua": "local function drain(k)\n  local items = rcall('SMEMBERS', k)\n" +
			"  for _, id in ipairs(items) do\n    rcall('DEL', id)\n  end\nend\n",
		"includes/ret.lua": "local x = 1\nreturn x\n",
		// Bad helpers: the joined text's scan and parse report them.
		"includes/deep.lua":   "local t = " + strings.Repeat("{", 300) + strings.Repeat("}", 300) + "\n",
		"includes/broken.lua": "local function broken(\n  return 1\nend\n",
		// Spliced: helpers between statements, one of them twice.
		"cmdA-2.lua": "local rcall = redis.call\n--- @include \"includes/getKey\"\n--- @include \"includes/loop\"\n" +
			"--- @include \"includes/suffix\"\nlocal k = getKey(KEYS[1], ARGV[1])\ndrain(k)\nreturn rcall('GET', k)\n",
		"cmdB-1.lua": "local rcall = redis.call\n-- comment only between the directives\n--- @include \"includes/loop\"\n" +
			"\n--- @include \"includes/getKey\"\ndrain(getKey('q:', ARGV[1]))\nreturn nil < 1\n",
		// Not spliced: a directive inside a function body.
		"cmdC-1.lua": "local function f()\n--- @include \"includes/suffix\"\n  return suffix(KEYS[1])\nend\nreturn f()\n",
		// Not spliced: the text after a directive starts with "(".
		"cmdD-1.lua": "local rcall = redis.call\n--- @include \"includes/suffix\"\n(function() return rcall('GET', KEYS[1]) end)()\n",
		// Not spliced: a statement after the helper's return (a syntax
		// error in the joined script, reported as such).
		"cmdE-1.lua": "--- @include \"includes/ret\"\nreturn redis.call('GET', KEYS[1])\n",
		// Not spliced: a lone carriage return, a line break to the
		// scanner but not to the assembler. (CRLF line ends are joined
		// as LF and spliced.)
		"cmdF-1.lua": "local rcall = redis.call\r\n--- @include \"includes/loop\"\r\ndrain(KEYS[1]) local y = 1\rreturn y\n",
		"cmdH-1.lua": "local rcall = redis.call\r\n--- @include \"includes/loop\"\r\ndrain(KEYS[1])\r\n",
		// Not spliced: a helper nested deeper than the checker's bound,
		// and one that does not parse.
		"cmdI-1.lua": "--- @include \"includes/deep\"\nreturn redis.call('GET', KEYS[1])\n",
		"cmdJ-1.lua": "--- @include \"includes/broken\"\nreturn redis.call('GET', KEYS[1])\n",
		// Not spliced: a shebang.
		"cmdG-1.lua": "#!lua flags=no-writes\n--- @include \"includes/suffix\"\nreturn suffix(KEYS[1])\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []string{"cmdA-2", "cmdB-1", "cmdC-1", "cmdD-1", "cmdE-1", "cmdF-1", "cmdG-1", "cmdH-1", "cmdI-1", "cmdJ-1"} {
		cmds = append(cmds, filepath.Join(dir, c+".lua"))
	}
	return dir, cmds
}

// TestSpliceSameTree: a script put together from pieces parsed once per
// run has the tokens and the syntax tree the parse of its joined text
// has, line numbers included; scripts the pieces cannot stand for are
// left to the joined parse.
func TestSpliceSameTree(t *testing.T) {
	_, cmds := spliceFiles(t)
	spliced := map[string]bool{"cmdA-2.lua": true, "cmdB-1.lua": true, "cmdH-1.lua": true}
	files := &fileCache{}
	for round := range 2 { // the second round takes every piece from the cache
		for _, path := range cmds {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			buf, segs, _ := assemble(src, Options{Filename: path, Includes: true, files: files})
			joined := buf.Bytes()
			sp := &splice{segs: segs, files: files}
			list, chunk, ok := sp.build(joined, DefaultMaxDepth, nil)
			name := filepath.Base(path)
			if ok != spliced[name] {
				t.Errorf("round %d: %s: spliced %v, want %v", round, name, ok, spliced[name])
			}
			if !ok {
				continue
			}
			want, err := parseChunk(joined, "")
			if err != nil {
				t.Fatalf("%s: joined text does not parse: %v", name, err)
			}
			if !reflect.DeepEqual(chunk, want) {
				t.Errorf("round %d: %s: spliced tree differs from the joined parse", round, name)
			}
			wantToks, _ := scanTokens(joined, DefaultMaxDepth, nil)
			if !reflect.DeepEqual(list, wantToks.list) {
				t.Errorf("round %d: %s: spliced tokens differ from the joined scan", round, name)
			}
		}
	}
}

// TestSpliceSameFindings: checking the commands in one run, where the
// helpers are parsed once, gives what checking each alone gives (the
// joined text parsed per script), with a helper's findings reported once.
func TestSpliceSameFindings(t *testing.T) {
	_, cmds := spliceFiles(t)
	want := make([]FileResult, len(cmds))
	for i, path := range cmds {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = FileResult{Path: path, Findings: Check(src, Options{Filename: path, Includes: true})}
	}
	dropRepeats(want)
	inHelper := 0
	for _, r := range want {
		for _, f := range r.Findings {
			if f.Pos.File != r.Path {
				inHelper++
			}
		}
	}
	if inHelper == 0 {
		t.Fatal("no finding inside a helper: the case tests nothing")
	}
	// The bad helpers are reported where they are, as the joined parse
	// reports them.
	for _, helper := range []string{"deep.lua", "broken.lua"} {
		found := false
		for _, r := range want {
			for _, f := range r.Findings {
				found = found || (f.Rule == RuleSyntax && filepath.Base(f.Pos.File) == helper)
			}
		}
		if !found {
			t.Errorf("no LUA001 finding in %s", helper)
		}
	}
	for _, workers := range []int{1, 3} {
		got := CheckFiles(cmds, workers, func(string, []byte) Options { return Options{Includes: true} })
		if !reflect.DeepEqual(got, want) {
			t.Errorf("workers=%d:\n got %v\nwant %v", workers, got, want)
		}
	}
}
