package luacheck

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// caseDir holds the rule cases shared with the Redis tests and the CLI.
const caseDir = "../testdata/lua"

var (
	wantRe  = regexp.MustCompile(`-- want(?:@(\d+))?((?: LUA\d{3})+)`)
	checkRe = regexp.MustCompile(`^-- check:(.*)$`)
)

// luaCase is one script of testdata/lua with its expectations.
type luaCase struct {
	path string
	src  []byte
	opts Options
	want map[int][]string // line -> sorted rule IDs
}

func loadCases(t testing.TB) []luaCase {
	t.Helper()
	var cases []luaCase
	err := filepath.WalkDir(caseDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".lua") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		c := luaCase{path: path, src: src, opts: Options{Filename: path}, want: map[int][]string{}}
		for i, line := range strings.Split(string(src), "\n") {
			if m := wantRe.FindStringSubmatch(line); m != nil {
				// "-- want@N" puts the expectation on line N, for lines
				// that cannot carry a comment (a shebang).
				at := i + 1
				if m[1] != "" {
					at, _ = strconv.Atoi(m[1])
				}
				ids := strings.Fields(m[2])
				sort.Strings(ids)
				c.want[at] = ids
			}
			if m := checkRe.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
				for _, opt := range strings.Fields(m[1]) {
					switch {
					case strings.HasPrefix(opt, "keys="):
						n, err := strconv.Atoi(strings.TrimPrefix(opt, "keys="))
						if err != nil {
							t.Fatalf("%s: bad %q", path, opt)
						}
						c.opts.NumKeys, c.opts.KeysKnown = n, true
					case opt == "function":
						c.opts.Function = true
					case opt == "readonly":
						c.opts.ReadOnly = true
					case opt == "argloops":
						c.opts.ArgLoops = true
					case opt == "returnedreads":
						c.opts.ReturnedReads = true
					default:
						t.Fatalf("%s: unknown check option %q", path, opt)
					}
				}
			}
		}
		cases = append(cases, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("found only %d cases under %s", len(cases), caseDir)
	}
	return cases
}

// TestCases checks every script of testdata/lua: each "-- want" line gets
// exactly the rules it names, every other line gets nothing, and each rule
// directory's bad files show that rule while its good files are clean.
func TestCases(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(strings.TrimPrefix(c.path, caseDir+"/"), func(t *testing.T) {
			got := map[int][]string{}
			for _, f := range Check(c.src, c.opts) {
				got[f.Pos.Line] = append(got[f.Pos.Line], f.Rule)
				if !styled(f.Message) {
					t.Errorf("%s: message must be lowercase, without a trailing period, doubled or adjacent parentheses or double spaces: %q", f.Pos, f.Message)
				}
				if f.Pos.Column <= 0 {
					t.Errorf("%s: %s has no column", f.Pos, f.Rule)
				}
				t.Logf("%s", f)
			}
			for line := range got {
				sort.Strings(got[line])
			}
			lines := map[int]bool{}
			for l := range got {
				lines[l] = true
			}
			for l := range c.want {
				lines[l] = true
			}
			for l := range lines {
				if strings.Join(got[l], " ") != strings.Join(c.want[l], " ") {
					t.Errorf("line %d: got %v, want %v", l, got[l], c.want[l])
				}
			}
			dir := filepath.Base(filepath.Dir(c.path))
			base := filepath.Base(c.path)
			switch {
			case strings.HasPrefix(base, "bad_"):
				found := false
				for _, ids := range c.want {
					for _, id := range ids {
						found = found || id == dir
					}
				}
				if !found {
					t.Errorf("bad case in %s/ expects no %s finding", dir, dir)
				}
			case strings.HasPrefix(base, "good_") || dir == "clean":
				if len(c.want) != 0 {
					t.Errorf("good case expects findings")
				}
			default:
				t.Errorf("case file names start with bad_ or good_ (or live in clean/)")
			}
		})
	}
}

// styled: diagnostics start lowercase (or with a command or identifier
// written as Redis or Lua spells it) and have no trailing period.
func styled(msg string) bool {
	if msg == "" || strings.HasSuffix(msg, ".") {
		return false
	}
	// Doubled or adjacent parentheses and double spaces are template
	// defects: a note in parentheses beside another, code text in
	// parentheses.
	for _, bad := range []string{"((", "))", ") (", "  "} {
		if strings.Contains(msg, bad) {
			return false
		}
	}
	word, _, _ := strings.Cut(msg, " ")
	if strings.ToLower(word[:1]) == word[:1] {
		return true
	}
	return strings.ToUpper(word) == word // FLUSHALL, KEYS[3], SSCAN
}
