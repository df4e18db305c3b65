package luacheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHeaderNames: names a header beside the script defines are not
// LUA302 when the header is checked in the same run (Bottleneck's
// refs.lua and helpers, joined with each body); other names, and names
// only a full script or a header elsewhere defines, still are.
func TestHeaderNames(t *testing.T) {
	lib, other := t.TempDir(), t.TempDir()
	files := map[string]string{
		filepath.Join(lib, "refs.lua"): "local settings_key = KEYS[1]\nlocal now = tonumber(ARGV[1])\n",
		filepath.Join(lib, "get_time.lua"): "redis.replicate_commands()\n\nlocal get_time = function ()\n" +
			"  local t = redis.call('time')\n  return t[1] * 1000 + math.floor(t[2] / 1000)\nend\n",
		// a full script: its locals are its own, not a header's
		filepath.Join(lib, "full.lua"):        "local owner = ARGV[1]\nreturn redis.call('GET', KEYS[1]) == owner\n",
		filepath.Join(lib, "body.lua"):        "return redis.call('HGET', settings_key, 'n') + now + get_time()\n",
		filepath.Join(lib, "typo.lua"):        "return redis.call('HGET', setings_key, 'n')\n",
		filepath.Join(lib, "owner.lua"):       "return redis.call('SET', KEYS[1], owner)\n",
		filepath.Join(lib, "stdlib.lua"):      "local settings_key = KEYS[1]\nreturn os.time() + now\n",
		filepath.Join(other, "elsewhere.lua"): "return redis.call('GET', settings_key)\n",
	}
	var paths []string
	for p, src := range files {
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	check := func(paths []string) map[string][]string {
		got := map[string][]string{}
		for _, r := range CheckFiles(paths, 2, func(string, []byte) Options { return Options{NumKeys: -1} }) {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			for _, f := range r.Findings {
				if f.Rule == RuleMissingGlobal {
					got[filepath.Base(r.Path)] = append(got[filepath.Base(r.Path)], f.Message)
				}
			}
		}
		return got
	}
	got := check(paths)
	for _, quiet := range []string{"body.lua", "refs.lua", "get_time.lua", "full.lua"} {
		if len(got[quiet]) > 0 {
			t.Errorf("%s: %q, want no LUA302: the headers beside it define its names", quiet, got[quiet])
		}
	}
	for file, want := range map[string]string{
		"typo.lua":      "setings_key",
		"owner.lua":     "owner",        // only a full script declares it
		"stdlib.lua":    "os",           // a standard name is never a header's
		"elsewhere.lua": "settings_key", // the header is in another directory
	} {
		if len(got[file]) != 1 || !strings.Contains(got[file][0], want) {
			t.Errorf("%s: %q, want one LUA302 on %s", file, got[file], want)
		}
	}
	// Without the headers in the run, the body's names are reported.
	var alone []string
	for _, p := range paths {
		if b := filepath.Base(p); b != "refs.lua" && b != "get_time.lua" {
			alone = append(alone, p)
		}
	}
	if got := check(alone); len(got["body.lua"]) != 1 || !strings.Contains(got["body.lua"][0], "3 globals are read and never defined") {
		t.Errorf("body.lua without its headers: %q, want the three names reported", got["body.lua"])
	}
}
