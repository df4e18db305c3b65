package luacheck

// These tests run the rule cases of testdata/lua against real Redis 7.0
// servers (scripts/redis-test-env): what each rule claims about Redis is
// checked against what Redis does, on a standalone server and on a
// 3-master cluster.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
)

func caseSource(t *testing.T, path string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(caseDir, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// findingsOf checks the case first, so each Redis test is tied to what the
// checker says about the same file.
func findingsOf(t *testing.T, path string, opts Options) []string {
	t.Helper()
	opts.Filename = path
	return rules(Check([]byte(caseSource(t, path)), opts))
}

type server struct {
	name    string
	c       redis.UniversalClient
	cluster bool
}

func servers(t *testing.T) []server {
	return []server{
		{"standalone", redistest.Standalone(t), false},
		{"cluster", redistest.Cluster(t), true},
	}
}

func evalErr(ctx context.Context, c redis.UniversalClient, src string, keys []string, args ...any) (any, error) {
	v, err := c.Eval(ctx, src, keys, args...).Result()
	if errors.Is(err, redis.Nil) {
		err = nil
	}
	return v, err
}

// crossSlotError is how Redis 7.0 refuses a script key another node
// serves (no shebang) or another slot (shebang scripts).
func crossSlotError(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "Script attempted to access a non local key in a cluster node") ||
		strings.Contains(err.Error(), "do not hash to the same slot"))
}

// undeclaredRun runs src with keys(i) for several i: on the standalone
// server every run must succeed; on the cluster some run must fail with
// the cross-slot error, which is what LUA201/LUA202 warn about.
func undeclaredRun(t *testing.T, src string, keys func(i int) []string, args func(i int) []any) {
	ctx := context.Background()
	for i := range 24 {
		cleanup(t, keys(i)...)
	}
	for _, s := range servers(t) {
		failed := 0
		for i := range 24 {
			_, err := evalErr(ctx, s.c, src, keys(i), args(i)...)
			switch {
			case err == nil:
			case s.cluster && crossSlotError(err):
				failed++
			default:
				t.Fatalf("%s run %d: %v", s.name, i, err)
			}
		}
		if s.cluster && failed == 0 {
			t.Errorf("cluster: no run failed with a cross-slot error")
		}
		t.Logf("%s: %d of 24 runs refused", s.name, failed)
	}
}

func cleanup(t *testing.T, keys ...string) {
	t.Cleanup(func() {
		ctx := context.Background()
		for _, s := range servers(t) {
			for _, k := range keys {
				s.c.Del(ctx, k)
			}
		}
	})
}

func TestRedisUndeclaredKeys(t *testing.T) {
	p := redistest.Prefix(t)
	t.Run("literal", func(t *testing.T) {
		if got := findingsOf(t, "LUA201/bad_literal.lua", Options{}); strings.Join(got, " ") != "LUA201" {
			t.Fatalf("checker: %v", got)
		}
		cleanup(t, "ratelimit:total")
		undeclaredRun(t, caseSource(t, "LUA201/bad_literal.lua"),
			func(i int) []string { return []string{p + "rl:" + strconv.Itoa(i)} },
			func(int) []any { return []any{60} })
	})
	t.Run("literal in decoded JSON", func(t *testing.T) {
		if got := findingsOf(t, "LUA201/bad_literal_json_config.lua", Options{}); strings.Join(got, " ") != "LUA201" {
			t.Fatalf("checker: %v", got)
		}
		cleanup(t, "ratelimit:json:total")
		undeclaredRun(t, caseSource(t, "LUA201/bad_literal_json_config.lua"),
			func(i int) []string { return []string{p + "rlj:" + strconv.Itoa(i)} },
			func(int) []any { return nil })
	})
	t.Run("helper literal", func(t *testing.T) {
		cleanup(t, "metrics:hits")
		undeclaredRun(t, caseSource(t, "LUA201/bad_helper_literal.lua"),
			func(i int) []string { return []string{p + "hits:" + strconv.Itoa(i)} },
			func(int) []any { return nil })
	})
	t.Run("argv", func(t *testing.T) {
		var made []string
		for i := range 24 {
			made = append(made, "bull:jobs:"+p+strconv.Itoa(i))
		}
		cleanup(t, made...)
		undeclaredRun(t, caseSource(t, "LUA201/bad_argv_key.lua"),
			func(i int) []string { return []string{p + "wait:" + strconv.Itoa(i)} },
			func(i int) []any { return []any{p + strconv.Itoa(i), "{}"} })
	})
	t.Run("data keys", func(t *testing.T) {
		var made []string
		for i := range 24 {
			id := p + "dk" + strconv.Itoa(i)
			made = append(made, "queue:"+id, "ql:w:"+id+":jobs", "ql:w:"+id+":seen")
		}
		cleanup(t, made...)
		undeclaredRun(t, caseSource(t, "LUA201/bad_data_keys.lua"),
			func(i int) []string {
				return []string{"{" + p + "}list" + strconv.Itoa(i), "{" + p + "}stored" + strconv.Itoa(i)}
			},
			func(i int) []any {
				id := p + "dk" + strconv.Itoa(i)
				return []any{`{"queue":"` + id + `","id":"j1"}`, id}
			})
	})
	t.Run("unpack ARGV", func(t *testing.T) {
		undeclaredRun(t, caseSource(t, "LUA201/bad_unpack_argv.lua"),
			func(i int) []string { return []string{p + "bulk:" + strconv.Itoa(i)} },
			func(i int) []any { return []any{p + "gone:" + strconv.Itoa(i), p + "gone2:" + strconv.Itoa(i)} })
	})
	t.Run("reply", func(t *testing.T) {
		ctx := context.Background()
		for _, s := range servers(t) {
			for i := range 24 {
				s.c.Set(ctx, p+"ptr:"+strconv.Itoa(i), p+"target:"+strconv.Itoa(i), time.Minute)
			}
		}
		undeclaredRun(t, caseSource(t, "LUA201/bad_reply_key.lua"),
			func(i int) []string { return []string{p + "ptr:" + strconv.Itoa(i)} },
			func(int) []any { return nil })
	})
	t.Run("derived untagged and tagged", func(t *testing.T) {
		for _, file := range []string{"LUA202/bad_suffix.lua", "LUA202/bad_format_and_helper.lua", "LUA202/bad_optional_suffix.lua"} {
			src := caseSource(t, file)
			undeclaredRun(t, src,
				func(i int) []string { return []string{p + "user:" + strconv.Itoa(i)} },
				func(int) []any { return []any{"owner", 5000} })
			// With a hash tag in KEYS[1] the derived keys share its slot:
			// every run succeeds on the cluster too.
			ctx := context.Background()
			c := redistest.Cluster(t)
			for i := range 24 {
				key := "{" + p + "user:" + strconv.Itoa(i) + "}"
				cleanup(t, key, key+":lock", key+":meta", key+":tags")
				if _, err := evalErr(ctx, c, src, []string{key}, "owner", 5000); err != nil {
					t.Errorf("%s with tagged KEYS[1]: %v", file, err)
				}
			}
		}
	})
	t.Run("keys tagged", func(t *testing.T) {
		// Derived keys take KEYS[1]'s tag: every run succeeds on the
		// cluster, as the quiet LUA202 says.
		if got := findingsOf(t, "LUA202/good_keys_tagged.lua", Options{}); len(got) != 0 {
			t.Fatalf("checker: %v", got)
		}
		ctx := context.Background()
		c := redistest.Cluster(t)
		for i := range 24 {
			tag := "{" + p + "q" + strconv.Itoa(i) + "}"
			keys := []string{tag + ":jobs", tag + ":wait"}
			cleanup(t, keys[0], keys[1], keys[0]+":j1", "lock:"+keys[0])
			if _, err := evalErr(ctx, c, caseSource(t, "LUA202/good_keys_tagged.lua"), keys, "j1", "me"); err != nil {
				t.Errorf("tagged run %d: %v", i, err)
			}
		}
		// A literal tag before KEYS[1] replaces its tag: some runs fail.
		if got := findingsOf(t, "LUA202/bad_keys_tagged_other_tag.lua", Options{}); strings.Join(got, " ") != "LUA202" {
			t.Fatalf("checker: %v", got)
		}
		var made []string
		for i := range 24 {
			tag := "{" + p + "q" + strconv.Itoa(i) + "}"
			made = append(made, "{stats}:"+tag+":jobs", tag+":jobs:n")
		}
		cleanup(t, made...)
		undeclaredRun(t, caseSource(t, "LUA202/bad_keys_tagged_other_tag.lua"),
			func(i int) []string { return []string{"{" + p + "q" + strconv.Itoa(i) + "}:jobs"} },
			func(int) []any { return nil })
	})
	t.Run("keys tagged, prefix in ARGV", func(t *testing.T) {
		// The queue passes its tagged prefix in ARGV too: every key built
		// from it shares the declared keys' slot, as the quiet LUA201 says.
		if got := findingsOf(t, "LUA201/good_keys_tagged_argv_prefix.lua", Options{}); len(got) != 0 {
			t.Fatalf("checker: %v", got)
		}
		ctx := context.Background()
		c := redistest.Cluster(t)
		src := caseSource(t, "LUA201/good_keys_tagged_argv_prefix.lua")
		for i := range 24 {
			prefix := "{" + p + "q" + strconv.Itoa(i) + "}:name:"
			keys := []string{prefix + "wait", prefix + "active"}
			cleanup(t, keys[0], keys[1], prefix+"j1", prefix+"j1:lock")
			if err := c.RPush(ctx, keys[0], "j1").Err(); err != nil {
				t.Fatal(err)
			}
			if _, err := evalErr(ctx, c, src, keys, prefix, "w1", 1); err != nil {
				t.Errorf("run %d: %v", i, err)
			}
		}
		// A job key built on the prefix on either of two paths (a counter
		// or the caller's id) is quiet too: both paths run.
		if got := findingsOf(t, "LUA201/good_keys_tagged_prefix_on_two_paths.lua", Options{}); len(got) != 0 {
			t.Fatalf("checker: %v", got)
		}
		src = caseSource(t, "LUA201/good_keys_tagged_prefix_on_two_paths.lua")
		for i := range 24 {
			prefix := "{" + p + "q" + strconv.Itoa(i) + "}:name:"
			keys := []string{prefix + "id", prefix + "wait"}
			cleanup(t, keys[0], keys[1], prefix+"1", prefix+"custom")
			for _, id := range []string{"", "custom"} {
				if _, err := evalErr(ctx, c, src, keys, prefix, id, "n", "{}"); err != nil {
					t.Errorf("run %d, id %q: %v", i, id, err)
				}
			}
		}
		// Without the tag on the prefix, the same key is refused in some
		// runs, as the one LUA201 of the untagged case says.
		if got := findingsOf(t, "LUA201/bad_prefix_on_two_paths.lua", Options{}); strings.Join(got, " ") != "LUA201" {
			t.Fatalf("checker: %v", got)
		}
		var jobs []string
		for i := range 24 {
			jobs = append(jobs, p+"jobs"+strconv.Itoa(i)+":1")
		}
		cleanup(t, jobs...)
		undeclaredRun(t, caseSource(t, "LUA201/bad_prefix_on_two_paths.lua"),
			func(i int) []string {
				tag := "{" + p + "q" + strconv.Itoa(i) + "}"
				return []string{tag + ":id2", tag + ":wait2"}
			},
			func(i int) []any { return []any{p + "jobs" + strconv.Itoa(i) + ":", "", "n", "{}"} })
		// The prefix may come in a payload decoded from ARGV as well.
		if got := findingsOf(t, "LUA201/good_keys_tagged_prefix_in_payload.lua", Options{}); len(got) != 0 {
			t.Fatalf("checker: %v", got)
		}
		src = caseSource(t, "LUA201/good_keys_tagged_prefix_in_payload.lua")
		for i := range 24 {
			prefix := "{" + p + "q" + strconv.Itoa(i) + "}:name:"
			cleanup(t, prefix+"wait", prefix+"j1", prefix+"j1:lock")
			payload := `{"prefix":"` + prefix + `","id":"j1","name":"n"}`
			if _, err := evalErr(ctx, c, src, []string{prefix + "wait"}, payload); err != nil {
				t.Errorf("payload run %d: %v", i, err)
			}
		}
		// A whole key in the payload, the parent job's, names another
		// queue under another tag: some runs are refused, as the LUA201
		// that -keys-tagged leaves says.
		if got := findingsOf(t, "LUA201/bad_keys_tagged_whole_argv_key.lua", Options{}); strings.Join(got, " ") != "LUA201" {
			t.Fatalf("checker: %v", got)
		}
		var parents []string
		for _, s := range servers(t) {
			for i := range 24 {
				parent := "{" + p + "other" + strconv.Itoa(i) + "}:name:p1"
				parents = append(parents, parent, parent+":dependencies", "{"+p+"q"+strconv.Itoa(i)+"}:name:j1")
				if err := s.c.HSet(ctx, parent, "name", "p").Err(); err != nil {
					t.Fatal(err)
				}
			}
		}
		cleanup(t, parents...)
		undeclaredRun(t, caseSource(t, "LUA201/bad_keys_tagged_whole_argv_key.lua"),
			func(i int) []string { return []string{"{" + p + "q" + strconv.Itoa(i) + "}:name:wait"} },
			func(i int) []any {
				prefix := "{" + p + "q" + strconv.Itoa(i) + "}:name:"
				parent := "{" + p + "other" + strconv.Itoa(i) + "}:name:p1"
				return []any{`{"prefix":"` + prefix + `","id":"j1","parentKey":"` + parent + `"}`}
			})
		// A helper's hash built on that parent key, which the helper never
		// uses whole but the script does, is refused in some runs too, as
		// its LUA201 says; a helper that builds on the queue's prefix from
		// the same payload runs everywhere.
		if got := findingsOf(t, "LUA201/bad_keys_tagged_helper_whole_root.lua", Options{}); strings.Join(got, " ") != "LUA201 LUA201" {
			t.Fatalf("checker: %v", got)
		}
		// The parent exists, so the script reaches the helper's HSET; the
		// hash it writes is in the parent's slot, not the queue's.
		const helperSrc = `local function recordProcessed(parentKey, jobKey, value)
  redis.call('HSET', parentKey .. ':processed', jobKey, value)
end
local args = cjson.decode(ARGV[1])
recordProcessed(args.parentKey, args.prefix .. args.id, args.value)
return redis.call('LPUSH', KEYS[1], args.id)`
		var processed []string
		for i := range 24 {
			processed = append(processed, "{"+p+"other"+strconv.Itoa(i)+"}:name:p1:processed")
		}
		cleanup(t, processed...)
		undeclaredRun(t, helperSrc,
			func(i int) []string { return []string{"{" + p + "q" + strconv.Itoa(i) + "}:name:wait"} },
			func(i int) []any {
				prefix := "{" + p + "q" + strconv.Itoa(i) + "}:name:"
				parent := "{" + p + "other" + strconv.Itoa(i) + "}:name:p1"
				return []any{`{"prefix":"` + prefix + `","id":"j1","parentKey":"` + parent + `","value":"v"}`}
			})
		undeclaredRun(t, caseSource(t, "LUA201/bad_keys_tagged_helper_whole_root.lua"),
			func(i int) []string { return []string{"{" + p + "q" + strconv.Itoa(i) + "}:name:wait"} },
			func(i int) []any {
				prefix := "{" + p + "q" + strconv.Itoa(i) + "}:name:"
				parent := "{" + p + "other" + strconv.Itoa(i) + "}:name:p1"
				return []any{`{"prefix":"` + prefix + `","id":"j1","parentKey":"` + parent + `","value":"v"}`}
			})
		if got := findingsOf(t, "LUA201/good_keys_tagged_helper_prefix.lua", Options{}); len(got) != 0 {
			t.Fatalf("checker: %v", got)
		}
		src = caseSource(t, "LUA201/good_keys_tagged_helper_prefix.lua")
		for i := range 24 {
			prefix := "{" + p + "q" + strconv.Itoa(i) + "}:name:"
			cleanup(t, prefix+"wait", prefix+"j1", prefix+"events", prefix+"added")
			payload := `{"prefix":"` + prefix + `","id":"j1","name":"n"}`
			if _, err := evalErr(ctx, c, src, []string{prefix + "wait"}, payload); err != nil {
				t.Errorf("helper prefix run %d: %v", i, err)
			}
		}
		// A parent key read from the job's hash names another queue, under
		// another tag: some runs are refused, as the LUA201 left says.
		if got := findingsOf(t, "LUA201/bad_keys_tagged_stored_key.lua", Options{}); strings.Join(got, " ") != "LUA201" {
			t.Fatalf("checker: %v", got)
		}
		var made []string
		for _, s := range servers(t) {
			for i := range 24 {
				prefix := "{" + p + "q" + strconv.Itoa(i) + "}:name:"
				parent := "{" + p + "other" + strconv.Itoa(i) + "}:name:p1"
				made = append(made, prefix+"j1", parent+":dependencies", prefix+"completed")
				if err := s.c.HSet(ctx, prefix+"j1", "parentKey", parent).Err(); err != nil {
					t.Fatal(err)
				}
			}
		}
		cleanup(t, made...)
		undeclaredRun(t, caseSource(t, "LUA201/bad_keys_tagged_stored_key.lua"),
			func(i int) []string { return []string{"{" + p + "q" + strconv.Itoa(i) + "}:name:completed"} },
			func(i int) []any { return []any{"{" + p + "q" + strconv.Itoa(i) + "}:name:", "j1", 1} })
	})
	t.Run("no-cluster flag", func(t *testing.T) {
		if got := findingsOf(t, "LUA201/good_no_cluster.lua", Options{}); len(got) != 0 {
			t.Fatalf("checker: %v", got)
		}
		cleanup(t, "stats:standalone")
		ctx := context.Background()
		if _, err := evalErr(ctx, redistest.Standalone(t), caseSource(t, "LUA201/good_no_cluster.lua"), nil); err != nil {
			t.Errorf("standalone: %v", err)
		}
		_, err := evalErr(ctx, redistest.Cluster(t), caseSource(t, "LUA201/good_no_cluster.lua"), nil)
		if err == nil || !strings.Contains(err.Error(), "Can not run script on cluster, 'no-cluster' flag is set") {
			t.Errorf("cluster: %v", err)
		}
	})
}

// TestRedisScriptErrors: scripts the checker reports fail in Redis with
// the error its message quotes.
func TestRedisScriptErrors(t *testing.T) {
	p := redistest.Prefix(t)
	cases := []struct {
		file    string
		opts    Options
		numKeys int
		want    string
	}{
		{"LUA203/bad_third_key.lua", Options{NumKeys: 2, KeysKnown: true}, 2, "Lua redis lib command arguments must be strings or integers"},
		{"LUA301/bad_globals.lua", Options{}, 0, "Attempt to modify a readonly table"},
		{"LUA301/bad_global_before_local.lua", Options{}, 0, "Attempt to modify a readonly table"},
		{"LUA301/bad_library_write.lua", Options{}, 0, "Attempt to modify a readonly table"},
		{"LUA302/bad_sandbox.lua", Options{}, 0, "attempted to access nonexistent global variable 'os'"},
		{"LUA302/bad_arg_outside_vararg.lua", Options{}, 0, "attempted to access nonexistent global variable 'arg'"},
		{"LUA302/bad_body_without_prelude.lua", Options{}, 0, "attempted to access nonexistent global variable 'num_static_argv'"},
		{"LUA302/bad_called_helper.lua", Options{}, 1, "attempted to access nonexistent global variable 'debug_lua'"},
		{"LUA304/bad_maybe_nil.lua", Options{}, 2, "attempt to compare number with nil"},
		{"LUA304/bad_other_value.lua", Options{}, 4, "attempt to compare nil with number"},
		{"LUA304/bad_list_length_guard.lua", Options{}, 2, "attempt to perform arithmetic on a boolean value"},
		{"LUA304/bad_member_not_added.lua", Options{}, 3, "attempt to compare boolean with number"},
		{"LUA304/bad_string_library.lua", Options{}, 2, "bad argument #1 to 'find' (string expected, got boolean)"},
		{"LUA304/bad_method_on_reply.lua", Options{}, 1, "attempt to index local 'owner' (a boolean value)"},
		{"LUA304/bad_length_of_reply.lua", Options{}, 1, "attempt to get length of local 'owner' (a boolean value)"},
		{"LUA402/bad_blocking.lua", Options{}, 3, "This Redis command is not allowed from script"},
		{"LUA403/bad_no_writes.lua", Options{}, 2, "Write commands are not allowed from read-only scripts"},
		{"LUA001/bad_client_library.lua", Options{}, 0, "attempted to access nonexistent global variable 'ngx'"},
		{"LUA001/bad_goto.lua", Options{}, 1, "Error compiling script"},
		{"LUA001/bad_template_params.lua", Options{}, 1, "Error compiling script"},
		{"LUA001/bad_template_erb.lua", Options{}, 1, "Error compiling script"},
		{"LUA001/bad_template_printf.lua", Options{}, 1, "Error compiling script"},
		{"LUA001/bad_unknown_flag.lua", Options{}, 1, "Unexpected flag in script shebang: readonly"},
	}
	ctx := context.Background()
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			rule := filepath.Dir(tc.file)
			found := false
			for _, r := range findingsOf(t, tc.file, tc.opts) {
				found = found || r == rule
			}
			if !found {
				t.Fatalf("checker does not report %s", rule)
			}
			keys := make([]string, tc.numKeys)
			for i := range keys {
				keys[i] = "{" + p + "}:" + strconv.Itoa(i)
			}
			// Each case leaves its keys deleted: a later one may need them
			// missing (an empty list).
			cleanup(t, keys...)
			for _, s := range servers(t) {
				_, err := evalErr(ctx, s.c, caseSource(t, tc.file), keys, "1")
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: got %v, want an error containing %q", s.name, err, tc.want)
				}
			}
		})
	}
	t.Run("EVAL_RO", func(t *testing.T) {
		if got := findingsOf(t, "LUA403/bad_readonly.lua", Options{ReadOnly: true}); strings.Join(got, " ") != "LUA403" {
			t.Fatalf("checker: %v", got)
		}
		for _, s := range servers(t) {
			err := s.c.EvalRO(ctx, caseSource(t, "LUA403/bad_readonly.lua"), []string{p + "ro"}).Err()
			if err == nil || !strings.Contains(err.Error(), "Write commands are not allowed from read-only scripts") {
				t.Errorf("%s: %v", s.name, err)
			}
		}
	})
}

// TestRedisBlockingCommands checks each LUA402 line of bad_blocking.lua on
// its own: refused, or (BLMPOP) run without blocking.
func TestRedisBlockingCommands(t *testing.T) {
	p := "{" + redistest.Prefix(t) + "}"
	ctx := context.Background()
	for _, s := range servers(t) {
		for _, line := range []string{
			"return redis.call('BLPOP', KEYS[1], 5)",
			"return redis.call('WAIT', 1, 100)",
			"return redis.call('XREAD', 'BLOCK', 1000, 'STREAMS', KEYS[1], '$')",
			"return redis.call('SUBSCRIBE', 'news')",
		} {
			_, err := evalErr(ctx, s.c, line, []string{p + "q"})
			if err == nil || !strings.Contains(err.Error(), "not allowed") {
				t.Errorf("%s: %s: %v", s.name, line, err)
			}
			if fs := Check([]byte(line), Options{}); len(fs) != 1 || fs[0].Rule != RuleNoScript {
				t.Errorf("checker on %s: %v", line, fs)
			}
		}
		// A timeout of 0 blocks for ever outside a script. Inside one
		// the list is empty and the command returns nil at once: had it
		// blocked, the reply would never come and the call would fail
		// with the context's deadline (or the client's read timeout).
		bctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		v, err := evalErr(bctx, s.c, "return redis.call('BLMPOP', 0, 1, KEYS[1], 'LEFT')", []string{p + "q"})
		cancel()
		if err != nil || v != nil {
			t.Errorf("%s: BLMPOP with no timeout on an empty list returned %v, %v: want nil without blocking", s.name, v, err)
		}
	}
}

// TestRedisNilCompare: the "== nil" branch of bad_nil_compare.lua is never
// taken (the lock key is never set), while "not v" sees the missing key.
func TestRedisNilCompare(t *testing.T) {
	p := "{" + redistest.Prefix(t) + "}"
	ctx := context.Background()
	for _, s := range servers(t) {
		keys := []string{p + "owner", p + "fields"}
		cleanup(t, keys...)
		if _, err := evalErr(ctx, s.c, caseSource(t, "LUA303/bad_nil_compare.lua"), keys, "me", 10000); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if n := s.c.Exists(ctx, keys[0]).Val(); n != 0 {
			t.Errorf("%s: the == nil branch ran", s.name)
		}
		v, err := s.c.Eval(ctx, "local v = redis.call('GET', KEYS[1]) return {v == nil and 1 or 0, v == false and 1 or 0, tonumber(v) == nil and 1 or 0}", keys[:1]).Result()
		if err != nil || strings.Trim(strings.Join(strings.Fields(strings.Trim(toString(v), "[]")), " "), " ") != "0 1 1" {
			t.Errorf("%s: {v==nil, v==false, tonumber(v)==nil} = %v, %v; want [0 1 1]", s.name, v, err)
		}
	}
}

func toString(v any) string {
	var b strings.Builder
	if vs, ok := v.([]any); ok {
		for _, x := range vs {
			b.WriteString(strconv.FormatInt(x.(int64), 10) + " ")
		}
	}
	return b.String()
}

// TestRedisNilBulkCommands: the commands LUA304 treats as "may be false"
// really return false in Lua for a missing key, member or field.
func TestRedisNilBulkCommands(t *testing.T) {
	p := "{" + redistest.Prefix(t) + "}"
	args := map[string]string{
		"GET": "KEYS[1]", "GETDEL": "KEYS[1]", "GETEX": "KEYS[1]", "GETSET": "KEYS[1], 'v'",
		"HGET": "KEYS[1], 'f'", "LINDEX": "KEYS[1], 0", "LPOP": "KEYS[1]", "RPOP": "KEYS[1]",
		"LMOVE": "KEYS[1], KEYS[2], 'LEFT', 'RIGHT'", "RPOPLPUSH": "KEYS[1], KEYS[2]",
		"SPOP": "KEYS[1]", "SRANDMEMBER": "KEYS[1]", "ZSCORE": "KEYS[1], 'm'", "ZRANK": "KEYS[1], 'm'",
		"ZREVRANK": "KEYS[1], 'm'", "LPOS": "KEYS[1], 'x'", "HRANDFIELD": "KEYS[1]",
		"SET": "KEYS[1], 'v', 'XX'",
	}
	if len(args) != len(nilBulk) {
		t.Fatalf("%d commands tested, %d listed", len(args), len(nilBulk))
	}
	ctx := context.Background()
	for _, s := range servers(t) {
		for cmd := range nilBulk {
			a, ok := args[cmd]
			if !ok {
				t.Fatalf("no arguments for %s", cmd)
			}
			src := "return redis.call('" + cmd + "', " + a + ") == false and 1 or 0"
			keys := []string{p + "missing:" + cmd, p + "other:" + cmd}
			cleanup(t, keys...)
			v, err := s.c.Eval(ctx, src, keys).Int()
			if err != nil || v != 1 {
				t.Errorf("%s: %s on a missing key: %v %v, want false", s.name, cmd, v, err)
			}
		}
	}
}

// TestRedisDangerous runs bad_dangerous.lua: it works on the standalone
// server, and the cluster refuses SORT ... BY as LUA401's message says.
func TestRedisDangerous(t *testing.T) {
	p := "{" + redistest.Prefix(t) + "}"
	ctx := context.Background()
	src := caseSource(t, "LUA401/bad_dangerous.lua")
	if got := findingsOf(t, "LUA401/bad_dangerous.lua", Options{}); strings.Join(got, " ") != "LUA401 LUA401 LUA401" {
		t.Fatalf("checker: %v", got)
	}
	for _, s := range servers(t) {
		_, err := evalErr(ctx, s.c, src, []string{p + "list"}, p+"*")
		switch {
		case !s.cluster && err != nil:
			t.Errorf("standalone: %v", err)
		case s.cluster && (err == nil || !strings.Contains(err.Error(), "BY option of SORT denied in Cluster mode")):
			t.Errorf("cluster: %v", err)
		}
	}
}

// TestRedisSortAndRestore: SORT BY nosort STORE and RESTORE of declared
// keys run on the cluster as on a standalone server (no LUA401), while
// GET (even "GET #") and a BY pattern are refused there (LUA401).
func TestRedisSortAndRestore(t *testing.T) {
	p := "{" + redistest.Prefix(t) + "}"
	ctx := context.Background()
	good := caseSource(t, "LUA401/good_sort_nosort_restore.lua")
	if fs := findingsOf(t, "LUA401/good_sort_nosort_restore.lua", Options{}); len(fs) != 0 {
		t.Fatalf("checker on the good case: %v", fs)
	}
	keys := []string{p + "src", p + "sorted", p + "copy"}
	cleanup(t, keys...)
	for _, s := range servers(t) {
		s.c.Del(ctx, keys...)
		if err := s.c.RPush(ctx, keys[0], 3, 1, 2).Err(); err != nil {
			t.Fatal(err)
		}
		if n, err := s.c.Eval(ctx, good, keys).Int(); err != nil || n != 3 {
			t.Errorf("%s: good case = %v, %v", s.name, n, err)
		}
		if got := s.c.LRange(ctx, keys[2], 0, -1).Val(); strings.Join(got, ",") != "3,1,2" {
			t.Errorf("%s: restored copy %v", s.name, got)
		}
		if got := s.c.LRange(ctx, keys[1], 0, -1).Val(); strings.Join(got, ",") != "3,1,2" {
			t.Errorf("%s: BY nosort STORE kept %v, want the list order", s.name, got)
		}
	}
	if got := findingsOf(t, "LUA401/bad_sort_get.lua", Options{}); strings.Join(got, " ") != "LUA401 LUA401" {
		t.Fatalf("checker on the bad case: %v", got)
	}
	for _, line := range []string{
		"return redis.call('SORT', KEYS[1], 'BY', 'nosort', 'GET', '#')",
		"return redis.call('SORT', KEYS[1], 'BY', 'weight_*', 'STORE', KEYS[2])",
	} {
		if fs := rules(Check([]byte(line), Options{})); strings.Join(fs, " ") != "LUA401" {
			t.Errorf("checker on %s: %v", line, fs)
		}
		_, err := evalErr(ctx, redistest.Cluster(t), line, keys[:2])
		if err == nil || !strings.Contains(err.Error(), "option of SORT denied in Cluster mode") {
			t.Errorf("cluster: %s: %v", line, err)
		}
	}
}

// TestRedisArrayReplies: the commands LUA303 calls array replies give an
// empty table for a missing key, never nil or false.
func TestRedisArrayReplies(t *testing.T) {
	p := "{" + redistest.Prefix(t) + "}"
	args := map[string]string{
		"LRANGE": "KEYS[1], 0, 9", "ZRANGE": "KEYS[1], 0, 9", "ZREVRANGE": "KEYS[1], 0, 9",
		"ZRANGEBYSCORE": "KEYS[1], 0, 9", "ZREVRANGEBYSCORE": "KEYS[1], 9, 0",
		"ZRANGEBYLEX": "KEYS[1], '-', '+'", "ZREVRANGEBYLEX": "KEYS[1], '+', '-'",
		"SMEMBERS": "KEYS[1]", "SINTER": "KEYS[1], KEYS[2]", "SUNION": "KEYS[1], KEYS[2]",
		"SDIFF": "KEYS[1], KEYS[2]", "HGETALL": "KEYS[1]", "HKEYS": "KEYS[1]", "HVALS": "KEYS[1]",
		"KEYS": "'slotlint-no-such-key-*'", "XRANGE": "KEYS[1], '-', '+'", "XREVRANGE": "KEYS[1], '+', '-'",
		"SORT": "KEYS[1]", "ZPOPMIN": "KEYS[1]", "ZPOPMAX": "KEYS[1]",
	}
	if len(args) != len(arrayReply) {
		t.Fatalf("%d commands tested, %d listed", len(args), len(arrayReply))
	}
	ctx := context.Background()
	for _, s := range servers(t) {
		for cmd := range arrayReply {
			src := "local r = redis.call('" + cmd + "', " + args[cmd] + ") return (type(r) == 'table' and #r == 0) and 1 or 0"
			v, err := s.c.Eval(ctx, src, []string{p + "missing:" + cmd, p + "other:" + cmd}).Int()
			if err != nil || v != 1 {
				t.Errorf("%s: %s on a missing key: %v %v, want an empty table", s.name, cmd, v, err)
			}
		}
	}
}

// TestRedisIntegerReplies: the commands LUA305 calls integer replies give
// a number in Lua (on a missing key, or for RENAMENX, which fails there,
// on a string), and a number,
// 0 included, and an empty table are true: "if reply then" takes the true
// side and "not reply" is false, as the checker says.
func TestRedisIntegerReplies(t *testing.T) {
	p := "{" + redistest.Prefix(t) + "}"
	args := map[string]string{
		"EXISTS": "KEYS[1]", "HEXISTS": "KEYS[1], 'f'", "SISMEMBER": "KEYS[1], 'm'",
		"SETNX": "KEYS[1], 'v'", "HSETNX": "KEYS[1], 'f', 'v'", "MSETNX": "KEYS[1], 'v'",
		"RENAMENX": "KEYS[1], KEYS[2]", "EXPIRE": "KEYS[1], 60", "PEXPIRE": "KEYS[1], 60000",
		"EXPIREAT": "KEYS[1], 4102444800", "PEXPIREAT": "KEYS[1], 4102444800000",
		"PERSIST": "KEYS[1]", "SMOVE": "KEYS[1], KEYS[2], 'm'", "DEL": "KEYS[1]",
		"UNLINK": "KEYS[1]", "SADD": "KEYS[1], 'm'", "SREM": "KEYS[1], 'm'",
		"HDEL": "KEYS[1], 'f'", "ZREM": "KEYS[1], 'm'", "LREM": "KEYS[1], 0, 'v'",
		"LLEN": "KEYS[1]", "SCARD": "KEYS[1]", "ZCARD": "KEYS[1]", "HLEN": "KEYS[1]",
		"STRLEN": "KEYS[1]", "INCR": "KEYS[1]", "DECR": "KEYS[1]", "INCRBY": "KEYS[1], 2",
		"DECRBY": "KEYS[1], 2", "HINCRBY": "KEYS[1], 'f', 2", "LPUSH": "KEYS[1], 'v'",
		"RPUSH": "KEYS[1], 'v'", "HSET": "KEYS[1], 'f', 'v'", "ZCOUNT": "KEYS[1], 0, 9",
		"TTL": "KEYS[1]", "PTTL": "KEYS[1]", "TOUCH": "KEYS[1]", "PUBLISH": "KEYS[1], 'm'",
		"GETBIT": "KEYS[1], 7", "SETBIT": "KEYS[1], 7, 1", "PFADD": "KEYS[1], 'e'",
		"XLEN": "KEYS[1]", "COPY": "KEYS[1], KEYS[2]",
	}
	if len(args) != len(integerReply) {
		t.Fatalf("%d commands tested, %d listed", len(args), len(integerReply))
	}
	ctx := context.Background()
	for _, s := range servers(t) {
		for cmd := range integerReply {
			keys := []string{p + "missing:" + cmd, p + "other:" + cmd}
			cleanup(t, keys...)
			src := "local r = redis.call('" + cmd + "', " + args[cmd] + ") return type(r) == 'number' and 1 or 0"
			if cmd == "RENAMENX" {
				// the one that fails on a missing key ("no such key")
				src = "redis.call('SET', KEYS[1], 'v') " + src
			}
			v, err := s.c.Eval(ctx, src, keys).Int()
			if err != nil || v != 1 {
				t.Errorf("%s: %s on a missing key: %v %v, want a number", s.name, cmd, v, err)
			}
		}
		for _, tt := range []struct{ script, want string }{
			{"if redis.call('EXISTS', KEYS[1]) then return 'true side' end return 'false side'", "true side"},
			{"if not redis.call('SISMEMBER', KEYS[1], 'm') then return 'not taken' end return 'not false'", "not false"},
			{"return redis.call('HEXISTS', KEYS[1], 'f') and 'and right' or 'or right'", "and right"},
			{"local r = redis.call('SMEMBERS', KEYS[1]) if r then return 'empty table true' end return 'false'", "empty table true"},
			// Compared with a boolean, a number or a table is never equal.
			{"if redis.call('EXISTS', KEYS[1]) == false then return 'equal' end return 'never equal'", "never equal"},
			{"local n = redis.call('INCR', KEYS[1]) redis.call('DEL', KEYS[1]) if n ~= true then return 'unequal' end return 'equal'", "unequal"},
			{"if redis.call('LRANGE', KEYS[1], 0, -1) == false then return 'equal' end return 'never equal'", "never equal"},
			{"local function count(k) return #redis.call('LRANGE', k, 0, 9) end redis.call('RPUSH', KEYS[1], 'a') local found = count(KEYS[1]) redis.call('DEL', KEYS[1]) if found ~= true then return 'a match counted as none' end return 'found'", "a match counted as none"},
		} {
			keys := []string{p + "nothing"}
			got, err := s.c.Eval(ctx, tt.script, keys).Text()
			if err != nil || got != tt.want {
				t.Errorf("%s: %s: %q %v, want %q", s.name, tt.script, got, err, tt.want)
			}
			if fs := rules(Check([]byte(tt.script), Options{})); !slices.Contains(fs, RuleTruthTest) {
				t.Errorf("checker on %s: %v, want %s", tt.script, fs, RuleTruthTest)
			}
		}
	}
}

// TestRedisKeysSeesOneNode: KEYS in a script on a cluster sees only the
// node it runs on (LUA401's message).
func TestRedisKeysSeesOneNode(t *testing.T) {
	p := redistest.Prefix(t)
	ctx := context.Background()
	c := redistest.Cluster(t)
	var made []string
	for i := range 30 {
		k := p + "k" + strconv.Itoa(i)
		made = append(made, k)
		if err := c.Set(ctx, k, 1, time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	}
	cleanup(t, made...)
	src := "return redis.call('KEYS', ARGV[1])"
	if fs := rules(Check([]byte(src), Options{})); strings.Join(fs, " ") != "LUA401" {
		t.Fatalf("checker: %v", fs)
	}
	v, err := c.Eval(ctx, src, []string{made[0]}, p+"*").StringSlice()
	if err != nil {
		t.Fatal(err)
	}
	if len(v) == 0 || len(v) >= len(made) {
		t.Errorf("KEYS saw %d of %d keys spread over 3 masters", len(v), len(made))
	}
}

// TestRedisCleanScripts runs every clean and good_ case that can run with
// keys in one slot: the silent scripts really work on both servers.
func TestRedisCleanScripts(t *testing.T) {
	p := "{" + redistest.Prefix(t) + "}"
	ctx := context.Background()
	runs := []struct {
		file string
		keys int
		args []any
	}{
		{"clean/reentrant_lock.lua", 1, []any{"owner-1", 10000}},
		{"clean/release_owner_check.lua", 2, []any{"owner-1"}},
		{"clean/monotonic_max.lua", 1, []any{42}},
		{"clean/token_bucket.lua", 1, []any{10, 20, 1}},
		{"clean/paginate_delayed.lua", 2, []any{time.Now().Unix()}},
		{"clean/sscan_batch.lua", 2, []any{"0"}},
		{"clean/cjson_payload.lua", 2, []any{`{"id":"j1","priority":3}`}},
		{"LUA201/good_declared.lua", 2, []any{"f", "v", 1, 10000}},
		{"LUA202/good_only_keys.lua", 2, []any{"owner", 5000}},
		{"LUA203/good_within.lua", 2, nil},
		{"LUA301/good_locals.lua", 1, []any{"v"}},
		{"LUA301/good_local_tables.lua", 1, nil},
		{"LUA001/good_nested_tables.lua", 2, []any{"a", "b"}},
		{"LUA302/good_method_self.lua", 1, nil},
		{"LUA302/good_sandbox.lua", 1, []any{"v"}},
		{"LUA302/good_vararg_arg.lua", 1, []any{"v"}},
		{"LUA302/good_uncalled_helper.lua", 1, []any{"false"}},
		{"LUA302/good_include_helper.lua", 0, nil},
		{"LUA303/good_false_checks.lua", 3, nil},
		{"LUA303/good_nil_beside_false.lua", 1, []any{"m"}},
		{"LUA101/good_flag_set_in_body.lua", 0, []any{"a;b;c"}},
		{"LUA304/good_guarded.lua", 3, []any{7}},
		{"LUA304/good_validated.lua", 1, []any{1}},
		{"LUA304/good_existence_tested.lua", 3, nil},
		{"LUA304/good_written_or_tested.lua", 3, []any{5, "m"}},
		{"LUA304/good_list_length_guard.lua", 2, []any{3, 1000}},
		{"LUA304/good_member_added.lua", 2, []any{5, "m"}},
		{"LUA401/good_plain.lua", 1, nil},
		{"LUA402/good_nonblocking.lua", 2, nil},
		{"LUA403/good_no_writes.lua", 2, nil},
		{"LUA102/good_math_min.lua", 2, []any{5}},
		{"LUA102/good_count_down_clamped.lua", 2, []any{5}},
		{"LUA102/good_checked_max.lua", 1, []any{5}},
		{"LUA103/good_pages.lua", 4, []any{100}},
		{"LUA103/good_scan_bounded.lua", 1, []any{"0"}},
		{"LUA102/good_for_keys_len.lua", 2, []any{"f", "v"}},
		{"LUA102/good_binary_search.lua", 2, []any{5}},
		{"LUA102/good_loop_over_page.lua", 3, []any{100}},
		{"LUA103/good_page_capped.lua", 2, []any{100}},
		{"LUA103/good_newest_page.lua", 1, []any{5}},
		{"LUA103/good_start_from_end.lua", 1, []any{5}},
	}
	// Scripts that need their first key to exist get this value first.
	firstValue := map[string]string{"LUA304/good_validated.lua": "42", "LUA304/good_existence_tested.lua": "42"}
	for _, r := range runs {
		if fs := findingsOf(t, r.file, Options{}); len(fs) != 0 {
			t.Errorf("%s: checker reports %v", r.file, fs)
		}
		keys := make([]string, r.keys)
		for i := range keys {
			keys[i] = p + filepath.Base(r.file) + ":" + strconv.Itoa(i)
		}
		cleanup(t, keys...)
		for _, s := range servers(t) {
			if first, ok := firstValue[r.file]; ok {
				if err := s.c.Set(ctx, keys[0], first, time.Minute).Err(); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := evalErr(ctx, s.c, caseSource(t, r.file), keys, r.args...); err != nil {
				t.Errorf("%s on %s: %v", r.file, s.name, err)
			}
		}
	}
}

// TestRedisFunctions loads the clean library and the no-writes case on
// every master and calls them.
func TestRedisFunctions(t *testing.T) {
	p := "{" + redistest.Prefix(t) + "}"
	ctx := context.Background()
	lib := caseSource(t, "clean/functions_library.lua")
	bad := caseSource(t, "LUA403/bad_function_no_writes.lua")
	dropLibraries(t, "slotlint_counters", "counters", "slotlint_moves")
	if fs := findingsOf(t, "clean/functions_library.lua", Options{Function: true}); len(fs) != 0 {
		t.Fatalf("checker: %v", fs)
	}
	load := func(s server, src string) {
		t.Helper()
		if s.cluster {
			err := s.c.(*redis.ClusterClient).ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
				return n.FunctionLoadReplace(ctx, src).Err()
			})
			if err != nil {
				t.Fatal(err)
			}
			return
		}
		if err := s.c.FunctionLoadReplace(ctx, src).Err(); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range servers(t) {
		load(s, lib)
		load(s, bad)
		key := p + "counter"
		cleanup(t, key)
		for want := int64(1); want <= 3; want++ {
			if v, err := s.c.FCall(ctx, "slotlint_incr_capped", []string{key}, 2).Int64(); err != nil || v != min(want, 2) {
				t.Errorf("%s: slotlint_incr_capped = %v %v, want %d", s.name, v, err, min(want, 2))
			}
		}
		if v, err := s.c.FCallRO(ctx, "slotlint_peek", []string{key}).Int64(); err != nil || v != 2 {
			t.Errorf("%s: slotlint_peek = %v %v", s.name, v, err)
		}
		// LUA203: the library's callback reads keys[2] but is given one key.
		load(s, caseSource(t, "LUA203/bad_function_keys.lua"))
		if fs := findingsOf(t, "LUA203/bad_function_keys.lua", Options{Function: true, NumKeys: 1, KeysKnown: true}); strings.Join(fs, " ") != "LUA203" {
			t.Errorf("checker on bad_function_keys.lua: %v", fs)
		}
		err := s.c.FCall(ctx, "slotlint_move", []string{p + "src"}).Err()
		if err == nil || !strings.Contains(err.Error(), "Lua redis lib command arguments must be strings or integers") {
			t.Errorf("%s: slotlint_move with one key: %v", s.name, err)
		}
		err = s.c.FCall(ctx, "counters_peek", []string{key}).Err()
		if err == nil || !strings.Contains(err.Error(), "Write commands are not allowed from read-only scripts") {
			t.Errorf("%s: counters_peek: %v", s.name, err)
		}
	}
}

// TestRedisSandboxGlobals compares the globals LUA302 accepts with the
// globals of Redis's script sandbox, for EVAL and for Functions.
func TestRedisSandboxGlobals(t *testing.T) {
	ctx := context.Background()
	list := "local t = {} for k in pairs(_G) do if k ~= '__redis__err__handler' then t[#t + 1] = k end end table.sort(t) return t"
	want := make([]string, 0, len(sandboxGlobals))
	for name := range sandboxGlobals {
		want = append(want, name)
	}
	slices.Sort(want)
	lib := "#!lua name=slotlint_globals\nredis.register_function('slotlint_globals', function() " + list + " end)"
	dropLibraries(t, "slotlint_globals")
	for _, s := range servers(t) {
		got, err := s.c.Eval(ctx, list, []string{"{g}"}).StringSlice()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s EVAL globals:\n got %v\nwant %v", s.name, got, want)
		}
		if s.cluster {
			err = s.c.(*redis.ClusterClient).ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
				return n.FunctionLoadReplace(ctx, lib).Err()
			})
		} else {
			err = s.c.FunctionLoadReplace(ctx, lib).Err()
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err = s.c.FCall(ctx, "slotlint_globals", []string{"{g}"}).StringSlice()
		if err != nil {
			t.Fatal(err)
		}
		fnWant := slices.DeleteFunc(slices.Clone(want), func(n string) bool { return n == "KEYS" || n == "ARGV" })
		if strings.Join(got, " ") != strings.Join(fnWant, " ") {
			t.Errorf("%s library globals:\n got %v\nwant %v", s.name, got, fnWant)
		}
	}
}

// TestRedisReadOnlyLibraries: every table LUA301 treats as read-only
// refuses a new member, in EVAL and in a Functions library alike.
func TestRedisReadOnlyLibraries(t *testing.T) {
	ctx := context.Background()
	for _, s := range servers(t) {
		for name := range readOnlyLibraries {
			src := name + ".slotlint_extra = 1 return 1"
			if f := only(t, Check([]byte(src), Options{}), RuleGlobalWrite); !strings.Contains(f.Message, "library table "+name) {
				t.Errorf("checker on %q: %s", src, f.Message)
			}
			_, err := evalErr(ctx, s.c, src, []string{"{g}"})
			if err == nil || !strings.Contains(err.Error(), "Attempt to modify a readonly table") {
				t.Errorf("%s: %s: %v", s.name, src, err)
			}
		}
	}
}

// dropLibraries deletes function libraries the test loaded, on the
// standalone server and on every cluster master.
func dropLibraries(t *testing.T, names ...string) {
	t.Cleanup(func() {
		ctx := context.Background()
		for _, s := range servers(t) {
			for _, name := range names {
				if s.cluster {
					_ = s.c.(*redis.ClusterClient).ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
						return n.FunctionDelete(ctx, name).Err()
					})
				} else {
					s.c.FunctionDelete(ctx, name)
				}
			}
		}
	})
}

// TestRedisCompileLimits: the nesting and limit forms of levels_test.go
// compile on a real server at their limit and fail one beyond it with the
// error LUA001 names; unlimited forms compile at 1,000 levels.
func TestRedisCompileLimits(t *testing.T) {
	ctx := context.Background()
	c := redistest.Standalone(t)
	compiles := func(src string) error {
		_, err := evalErr(ctx, c, src, nil, "1")
		return err
	}
	for _, form := range syntaxLevelForms {
		if form.max == 0 {
			if err := compiles(form.script(1000)); err != nil {
				t.Errorf("%s at 1000 levels: %v", form.name, err)
			}
			continue
		}
		if err := compiles(form.script(form.max)); err != nil {
			t.Errorf("%s at %d levels: %v", form.name, form.max, err)
		}
		if err := compiles(form.script(form.max + 1)); err == nil || !strings.Contains(err.Error(), "chunk has too many syntax levels") {
			t.Errorf("%s at %d levels: %v", form.name, form.max+1, err)
		}
	}
	for _, form := range limitForms {
		if err := compiles(form.script(form.max)); err != nil {
			t.Errorf("%s at %d: %v", form.name, form.max, err)
		}
		if err := compiles(form.script(form.max + 1)); err == nil || !strings.Contains(err.Error(), form.want) {
			t.Errorf("%s at %d: %v, want %q", form.name, form.max+1, err, form.want)
		}
	}
}

// TestRedisListedKeys checks what LUA304 assumes of a key the script has
// just listed with KEYS or SCAN: it is there for the rest of the script.
// good_listed_key.lua runs over keys that all exist, one with a TTL that
// ends while the script busy-waits on TIME: Redis does not expire keys
// while a script runs, so GET of each listed key gives its text and the
// script succeeds; bad_listed_key_built.lua, whose key is built from a
// listed one, fails on the missing ":owner" key as its finding says.
func TestRedisListedKeys(t *testing.T) {
	if got := findingsOf(t, "LUA304/good_listed_key.lua", Options{}); len(got) != 0 {
		t.Fatalf("checker on the good case: %v", got)
	}
	c := redistest.Standalone(t)
	ctx := context.Background()
	// The cases list hb:*: the test's own prefix keeps other keys of the
	// shared server out of the listing.
	p := redistest.Prefix(t) + ":"
	own := func(src string) string { return strings.ReplaceAll(src, "'hb:", "'"+p+"hb:") }
	a, b := p+"hb:a", p+"hb:b"
	cleanup(t, a, b)
	now := time.Now().UnixMilli()
	if err := c.Set(ctx, a, now-120000, 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(ctx, b, now, 30*time.Millisecond).Err(); err != nil {
		t.Fatal(err)
	}
	// KEYS, then a wait of 100 ms on the server's clock, then GET of each
	// listed key: the TTL of hb:b ends in the wait.
	const wait = "local keys = redis.call('KEYS', 'hb:*')\n" +
		"local t = redis.call('TIME')\nlocal until_ms = t[1] * 1000 + t[2] / 1000 + 100\n" +
		"repeat t = redis.call('TIME') until t[1] * 1000 + t[2] / 1000 >= until_ms\n" +
		"local out = {}\nfor _, k in ipairs(keys) do out[#out + 1] = redis.call('GET', k) end\nreturn out\n"
	vals, err := c.Eval(ctx, own(wait), nil).StringSlice()
	if err != nil || len(vals) != 2 {
		t.Fatalf("GET of listed keys after a TTL ended mid-script: %v, %v; want both values", vals, err)
	}
	if n, _ := c.Exists(ctx, b).Result(); n != 0 {
		t.Fatalf("%s still exists after the script: its TTL did not end during the wait", b)
	}
	c.Set(ctx, b, now, 0)
	res, err := c.Eval(ctx, own(caseSource(t, "LUA304/good_listed_key.lua")), nil, now).Slice()
	if err != nil || len(res) != 2 {
		t.Fatalf("good_listed_key.lua: %v, %v; want the stale keys and the fresh count", res, err)
	}
	if stale, _ := res[0].([]any); len(stale) != 1 || stale[0] != a || res[1] != int64(1) {
		t.Fatalf("good_listed_key.lua: %v; want [[%s] 1]", res, a)
	}
	err = c.Eval(ctx, own(caseSource(t, "LUA304/bad_listed_key_built.lua")), nil, now).Err()
	if err == nil || !strings.Contains(err.Error(), "attempt to perform arithmetic") {
		t.Fatalf("bad_listed_key_built.lua: %v, want the arithmetic error on a missing key", err)
	}
}
