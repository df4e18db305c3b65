package luacheck

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCheckFiles: reading files with any number of workers, each reusing
// its read buffer, gives the findings Check gives on the same bytes, in
// the order of the paths; unreadable files are errors, not findings.
func TestCheckFiles(t *testing.T) {
	cases := loadCases(t)
	var paths []string
	want := map[string][]Finding{}
	for _, c := range cases {
		paths = append(paths, c.path)
		opts := c.opts
		opts.Filename = c.path
		want[c.path] = Check(c.src, opts)
	}
	// A big file first, so later small ones land in a buffer with stale
	// bytes past their end.
	big := filepath.Join(t.TempDir(), "big.lua")
	if err := os.WriteFile(big, []byte(strings.Repeat("local x = 1\n", 5000)+"y = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want[big] = Check([]byte(strings.Repeat("local x = 1\n", 5000)+"y = 2\n"), Options{Filename: big})
	missing := filepath.Join(t.TempDir(), "missing.lua")
	paths = append([]string{big, missing}, paths...)
	optsFor := func(path string, _ []byte) Options {
		for _, c := range cases {
			if c.path == path {
				return c.opts
			}
		}
		return Options{}
	}
	for _, workers := range []int{1, 2, 7, 0} {
		res := CheckFiles(paths, workers, optsFor)
		if len(res) != len(paths) {
			t.Fatalf("workers=%d: %d results for %d paths", workers, len(res), len(paths))
		}
		for i, r := range res {
			if r.Path != paths[i] {
				t.Fatalf("workers=%d: result %d is %s, want %s", workers, i, r.Path, paths[i])
			}
			if r.Path == missing {
				if !errors.Is(r.Err, fs.ErrNotExist) || !strings.Contains(r.Err.Error(), "open "+missing) {
					t.Errorf("workers=%d: missing file: %v", workers, r.Err)
				}
				continue
			}
			if r.Err != nil {
				t.Fatalf("workers=%d: %s: %v", workers, r.Path, r.Err)
			}
			if !reflect.DeepEqual(r.Findings, want[r.Path]) {
				t.Errorf("workers=%d: %s:\ngot  %v\nwant %v", workers, r.Path, r.Findings, want[r.Path])
			}
		}
	}
	if res := CheckFiles(nil, 0, optsFor); len(res) != 0 {
		t.Errorf("no paths: %v", res)
	}
}

// TestReadLimited: the read stops one byte past the limit, and a reused
// buffer's old contents do not leak into a shorter file.
func TestReadLimited(t *testing.T) {
	dir := t.TempDir()
	long, short := filepath.Join(dir, "long.lua"), filepath.Join(dir, "short.lua")
	if err := os.WriteFile(long, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(short, []byte("return 1"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := readLimited(long, 10, nil)
	if err != nil || len(src) != 11 {
		t.Fatalf("limited read: %d bytes, %v", len(src), err)
	}
	src, err = readLimited(long, 1000, nil)
	if err != nil || len(src) != 100 {
		t.Fatalf("full read: %d bytes, %v", len(src), err)
	}
	src, err = readLimited(short, 1000, src)
	if err != nil || string(src) != "return 1" {
		t.Fatalf("reused buffer: %q, %v", src, err)
	}
	if _, err := readLimited(dir, 1000, nil); err == nil || !strings.Contains(err.Error(), "reading "+dir) {
		t.Errorf("directory: %v", err)
	}
}

// TestCheckFilesIncludedOnce: a helper that two scripts include and that
// is checked itself gives its finding once, in its own result.
func TestCheckFilesIncludedOnce(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a-1.lua":             "--- @include \"includes/helper\"\nreturn 1\n",
		"b-1.lua":             "--- @include \"includes/helper\"\nreturn 2\n",
		"includes/helper.lua": "--- @include \"missing\"\nlocal function f() return 1 end\n",
	}
	var paths []string
	for _, name := range []string{"a-1.lua", "b-1.lua", "includes/helper.lua"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	res := CheckFiles(paths, 1, func(string, []byte) Options { return Options{Includes: true} })
	var got []string
	for _, r := range res {
		for _, f := range r.Findings {
			got = append(got, filepath.Base(r.Path)+": "+filepath.Base(f.Pos.File)+" "+f.Rule)
		}
	}
	if strings.Join(got, "; ") != "helper.lua: helper.lua LUA001" {
		t.Errorf("findings: %v", got)
	}
	// Without the helper among the paths, the first includer reports it.
	res = CheckFiles(paths[:2], 1, func(string, []byte) Options { return Options{Includes: true} })
	if len(res[0].Findings) != 1 || len(res[1].Findings) != 0 {
		t.Errorf("includers only: %v / %v", res[0].Findings, res[1].Findings)
	}
}

// TestCheckFilesHelperOnePlace: a helper two scripts call with keys from
// different ARGV elements, and that is itself given as "./dir/...",
// reports its finding once: one place, one rule, one finding, whatever
// each includer's message says and however the path is spelled. (A key
// read from stored data at a place printed with a prefix from ARGV is
// another cause: TestCheckFilesHelperTwoCauses.)
func TestCheckFilesHelperOnePlace(t *testing.T) {
	t.Chdir(t.TempDir())
	files := map[string]string{
		"q/a-1.lua":            "--- @include \"includes/touch\"\ntouch(ARGV[1])\n",
		"q/b-1.lua":            "--- @include \"includes/touch\"\ntouch(ARGV[2])\n",
		"q/includes/touch.lua": "local function touch(prefix)\n  redis.call('SET', prefix .. 'seen', 1)\nend\n",
	}
	writeFiles(t, files)
	got := includedFindings("./q/a-1.lua", "./q/b-1.lua", "./q/includes/touch.lua")
	if len(got) != 1 || !strings.Contains(got[0], "touch.lua:2:") || !strings.Contains(got[0], "LUA201") {
		t.Errorf("findings: %q", got)
	}
}

// TestCheckFilesUncalledHelper: a function of an included file that the
// script never calls is code it never runs. Its findings come from the
// included file's own check, when that file is checked; the includer
// analyses only the helpers it calls, with the arguments it passes.
func TestCheckFilesUncalledHelper(t *testing.T) {
	t.Chdir(t.TempDir())
	files := map[string]string{
		"q/a-1.lua": "--- @include \"includes/lib\"\nreturn used(ARGV[1])\n",
		"q/includes/lib.lua": "local function used(id)\n  return redis.call('GET', 'job:' .. id)\nend\n" +
			"local function unused()\n  for i = 1, tonumber(ARGV[2]) do redis.call('RPOP', 'q') end\nend\n",
	}
	writeFiles(t, files)
	includer := strings.Join(includedFindings("./q/a-1.lua"), "\n")
	if !strings.Contains(includer, "lib.lua:2:") || strings.Contains(includer, "lib.lua:5:") {
		t.Errorf("the includer alone reports:\n%s\nwant the called helper's key (lib.lua:2), not the uncalled one's loop or key (lib.lua:5)", includer)
	}
	// Check on its own, without a run's file cache, says the same.
	src, err := os.ReadFile("q/a-1.lua")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Check(src, Options{Filename: "q/a-1.lua", Includes: true}) {
		if f.Pos.Line == 5 && strings.HasSuffix(f.Pos.File, "lib.lua") {
			t.Errorf("Check alone reports the uncalled helper: %v", f)
		}
	}
	both := includedFindings("./q/a-1.lua", "./q/includes/lib.lua")
	var inUnused int
	for _, f := range both {
		if strings.Contains(f, "lib.lua:5:") {
			inUnused++
		}
	}
	if inUnused != 2 {
		t.Errorf("with the included file checked too:\n%s\nwant its uncalled function's LUA102 and LUA201, once each", strings.Join(both, "\n"))
	}
}

// TestCheckFilesHelperCauseOnce: a helper whose keys built from one
// parameter two includers reach on different lines is one LUA201 for the
// run: the first includer's finding names the lines the second reaches
// too, and no place is printed twice.
func TestCheckFilesHelperCauseOnce(t *testing.T) {
	t.Chdir(t.TempDir())
	files := map[string]string{
		"q/a-1.lua": "--- @include \"includes/move\"\nmove(redis.call('HGET', KEYS[1], 'parent'), true)\n",
		"q/b-1.lua": "--- @include \"includes/move\"\nmove(redis.call('HGET', KEYS[1], 'parent'), false)\n",
		"q/includes/move.lua": "local function move(parent, first)\n  if first then\n    redis.call('LPUSH', parent .. ':wait', 1)\n  else\n" +
			"    redis.call('SADD', parent .. ':later', 1)\n  end\n  redis.call('XADD', parent .. ':events', '*', 'e', 'w')\nend\n",
	}
	writeFiles(t, files)
	got := includedFindings("./q/a-1.lua", "./q/b-1.lua")
	if len(got) != 1 || !strings.Contains(got[0], "move.lua:3:") || !strings.HasSuffix(got[0], "; so are the keys this file builds from parent on lines 5 and 7") {
		t.Errorf("findings: %q", got)
	}
}

// TestCheckFilesHelperTwoCauses: a helper place that one includer reaches
// with the prefix it passes in ARGV and another with a prefix read from
// stored data has two causes, each printed once; a third includer with
// the ARGV prefix again is a repeat.
func TestCheckFilesHelperTwoCauses(t *testing.T) {
	t.Chdir(t.TempDir())
	files := map[string]string{
		"q/a-1.lua":           "--- @include \"includes/drop\"\ndrop(ARGV[1], ARGV[2])\n",
		"q/b-1.lua":           "--- @include \"includes/drop\"\ndrop(redis.call('HGET', KEYS[1], 'parentPrefix'), ARGV[2])\n",
		"q/c-1.lua":           "--- @include \"includes/drop\"\ndrop(ARGV[1], ARGV[3])\n",
		"q/includes/drop.lua": "local function drop(prefix, id)\n  redis.call('DEL', prefix .. 'de:' .. id)\nend\n",
	}
	writeFiles(t, files)
	got := includedFindings("./q/a-1.lua", "./q/b-1.lua", "./q/c-1.lua")
	if len(got) != 2 || !strings.Contains(got[0], "drop.lua:2:") || !strings.Contains(got[0], "comes from ARGV") ||
		!strings.Contains(got[1], "drop.lua:2:") || !strings.Contains(got[1], "key a reply of HGET .. \"de:\" .. ARGV[2] is read from stored data") {
		t.Errorf("findings: %q", got)
	}
}

// TestCheckFilesKeysTaggedWholeRoot: under -keys-tagged, a helper's key
// built on its parameter is reported when the includer uses the same
// value, a field of its payload, as a whole key, and stays quiet when the
// includer passes the queue's prefix (BullMQ's add-job scripts and
// updateExistingJobsParent).
func TestCheckFilesKeysTaggedWholeRoot(t *testing.T) {
	t.Chdir(t.TempDir())
	files := map[string]string{
		"q/add-1.lua": "--- @include \"includes/record\"\nlocal args = cmsgpack.unpack(ARGV[1])\n" +
			"if redis.call('EXISTS', args[5]) ~= 1 then return -5 end\nrecord(args[5], args[1] .. args[2])\nrecord(args[1], args[2])\n",
		"q/includes/record.lua": "local function record(parentKey, jobKey)\n  redis.call('HSET', parentKey .. ':processed', jobKey, 1)\nend\n",
	}
	writeFiles(t, files)
	var got []string
	for _, r := range CheckFiles([]string{"./q/add-1.lua"}, 1, func(string, []byte) Options { return Options{Includes: true, KeysTagged: true} }) {
		for _, f := range r.Findings {
			got = append(got, f.String())
		}
	}
	if len(got) != 2 || !strings.Contains(got[0], "add-1.lua:3:") ||
		!strings.Contains(got[1], "record.lua:2:") || !strings.Contains(got[1], "the same value is used as a whole key at add-1.lua:3") {
		t.Errorf("findings: %q", got)
	}
	files["q/add-1.lua"] = "--- @include \"includes/record\"\nlocal args = cmsgpack.unpack(ARGV[1])\nrecord(args[1], args[2])\n"
	writeFiles(t, files)
	for _, r := range CheckFiles([]string{"./q/add-1.lua"}, 1, func(string, []byte) Options { return Options{Includes: true, KeysTagged: true} }) {
		if len(r.Findings) != 0 {
			t.Errorf("prefix only: %v", r.Findings)
		}
	}
}

// writeFiles writes files, named relative to the current directory (the
// tests change into a temporary one), creating their directories.
func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// includedFindings checks paths as one run with includes resolved, one
// worker, and returns every finding as printed, in order.
func includedFindings(paths ...string) []string {
	var got []string
	for _, r := range CheckFiles(paths, 1, func(string, []byte) Options { return Options{Includes: true} }) {
		for _, f := range r.Findings {
			got = append(got, f.String())
		}
	}
	return got
}
