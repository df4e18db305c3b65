package luacheck

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
)

// TestRedisPollingState checks on a real server what the polling-loop
// rule (LUA101) assumes: while a script runs, a key it does not write,
// INFO replication and the success of a SET it repeats stay the same on
// every pass, while TIME and INFO stats move. The script samples each
// many times in a bounded loop rather than spinning, so the shared server
// is never left BUSY.
func TestRedisPollingState(t *testing.T) {
	c := redistest.Standalone(t)
	p := "{" + redistest.Prefix(t) + "}"
	keys := []string{p + "flag", p + "counter", p + "set"}
	cleanup(t, keys...)
	ctx := context.Background()
	if err := c.Set(ctx, keys[0], "waiting", 0).Err(); err != nil {
		t.Fatal(err)
	}
	const script = `
local first = {
  flag = redis.call('GET', KEYS[1]),
  repl = redis.call('INFO', 'replication'),
  ok = pcall(redis.call, 'SET', KEYS[3], 'v'),
}
local changed = {}
local t0 = redis.call('TIME')
local stats0 = redis.call('INFO', 'stats')
for i = 1, 2000 do
  redis.call('INCR', KEYS[2])
  if redis.call('GET', KEYS[1]) ~= first.flag then changed.flag = true end
  if redis.call('INFO', 'replication') ~= first.repl then changed.repl = true end
  if pcall(redis.call, 'SET', KEYS[3], 'v') ~= first.ok then changed.ok = true end
end
local t1 = redis.call('TIME')
local stats1 = redis.call('INFO', 'stats')
return {tostring(changed.flag or false), tostring(changed.repl or false), tostring(changed.ok or false),
  tostring(t0[1] ~= t1[1] or t0[2] ~= t1[2]), tostring(stats0 ~= stats1)}`
	got, err := c.Eval(ctx, script, keys).StringSlice()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"false", "false", "false", "true", "true"}
	names := []string{"GET of an unwritten key", "INFO replication", "pcall SET status", "TIME", "INFO stats"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s changed during the script: %s, the rule assumes %s", names[i], got[i], want[i])
		}
	}

	// The checker agrees: the first three as loop exits are LUA101, the
	// last two are not.
	loops := map[string]bool{
		"while true do if redis.call('GET', KEYS[1]) == 'go' then break end redis.call('INCR', KEYS[2]) end":                  true,
		"while true do if redis.call('INFO', 'replication'):find('role:slave') then break end end":                            true,
		"while true do if not pcall(redis.call, 'SET', KEYS[3], 'v') then break end end":                                      true,
		"local d = redis.call('TIME')[1] + 1 while true do if tonumber(redis.call('TIME')[1]) > d then break end end":         false,
		"while true do if redis.call('INFO', 'stats'):find('total_commands_processed:100') then break end end":                false,
		"while true do local v = redis.call('GET', KEYS[1]) if v == 'go' then break end redis.call('SET', KEYS[1], 'go') end": false,
	}
	for src, want := range loops {
		got := strings.Contains(strings.Join(rules(Check([]byte(src), Options{})), " "), RuleNoBound)
		if got != want {
			t.Errorf("LUA101 on %q: got %v, want %v", src, got, want)
		}
	}
}

// TestRedisStopFromEnd checks what LUA103 says of "ZRANGE k 0 (-1 - n)": it
// returns every member but the last n, so the reply grows with the set.
func TestRedisStopFromEnd(t *testing.T) {
	c := redistest.Standalone(t)
	key := "{" + redistest.Prefix(t) + "}done"
	cleanup(t, key)
	ctx := context.Background()
	src := caseSource(t, "LUA103/bad_keep_newest.lua")
	for _, members := range []int{5, 50} {
		for i := range members {
			if err := c.ZAdd(ctx, key, redis.Z{Score: float64(i), Member: i}).Err(); err != nil {
				t.Fatal(err)
			}
		}
		// The case deletes each older job's key and returns how many it read.
		n, err := c.Eval(ctx, src, []string{key, key + ":job:"}, 3).Int()
		if err != nil {
			t.Fatal(err)
		}
		if n != members-3 {
			t.Errorf("%d members, keep 3: the read returned %d, want %d", members, n, members-3)
		}
		if left := c.ZCard(ctx, key).Val(); left != 3 {
			t.Errorf("%d members: %d left, want 3", members, left)
		}
		c.Del(ctx, key)
	}
}

// TestRedisPopUntilEmpty: a loop that pops until nothing comes back moves
// the whole list in one call, however long it is (LUA103), while the
// capped one leaves the rest for the next call.
func TestRedisPopUntilEmpty(t *testing.T) {
	c := redistest.Standalone(t)
	p := "{" + redistest.Prefix(t) + "}"
	from, to := p+"waiting", p+"queue"
	cleanup(t, from, to)
	ctx := context.Background()
	if got := findingsOf(t, "LUA103/bad_pop_until_empty.lua", Options{}); strings.Join(got, " ") != "LUA103 LUA103" {
		t.Fatalf("checker: %v", got)
	}
	for _, n := range []int{50, 5000} {
		items := make([]any, n)
		for i := range items {
			items[i] = 100 + i
		}
		if err := c.RPush(ctx, from, items...).Err(); err != nil {
			t.Fatal(err)
		}
		// Every id is above the last ack: the first loop pops one and puts
		// it back, the second moves the whole list.
		moved, err := c.Eval(ctx, caseSource(t, "LUA103/bad_pop_until_empty.lua"), []string{from, to}, 0).Int()
		if err != nil {
			t.Fatal(err)
		}
		if moved != n || c.LLen(ctx, from).Val() != 0 || c.LLen(ctx, to).Val() != int64(n) {
			t.Errorf("%d items: moved %d in one call, %d left", n, moved, c.LLen(ctx, from).Val())
		}
		c.Del(ctx, from, to)
	}
	if got := findingsOf(t, "LUA103/good_pop_capped.lua", Options{}); len(got) != 0 {
		t.Fatalf("checker on the capped loop: %v", got)
	}
	items := make([]any, 5000)
	for i := range items {
		items[i] = i
	}
	c.RPush(ctx, from, items...)
	left, err := c.Eval(ctx, caseSource(t, "LUA103/good_pop_capped.lua"), []string{from, to, p + "stale"}, 10000).Int()
	if err != nil {
		t.Fatal(err)
	}
	if left != 4500 {
		t.Errorf("capped: %d left, want 4500", left)
	}

	// A count from ARGV that runs down beside the list's length ends the
	// loop first: the call moves that many, not the whole list, so the
	// finding is the count's (LUA102), not the pops'.
	if got := findingsOf(t, "LUA102/bad_pop_countdown_from_argv.lua", Options{}); strings.Join(got, " ") != "LUA102" {
		t.Fatalf("checker on the countdown: %v", got)
	}
	c.Del(ctx, from, to)
	c.RPush(ctx, from, items[:100]...)
	res, err := c.Eval(ctx, caseSource(t, "LUA102/bad_pop_countdown_from_argv.lua"), []string{from, to}, 10).Int64Slice()
	if err != nil || len(res) != 2 || res[0] != 90 || res[1] != 10 || c.LLen(ctx, from).Val() != 90 {
		t.Errorf("countdown of 10 over 100 items: %v %v, %d left; want 10 moved, 90 left", res, err, c.LLen(ctx, from).Val())
	}
}

// TestRedisKeepCount: "ZREVRANGE set keep -1" with keep from stored
// options reads every member past the kept ones, so the reply grows with
// the set (LUA103, LUA102 at the loop that deletes each).
func TestRedisKeepCount(t *testing.T) {
	c := redistest.Standalone(t)
	p := "{" + redistest.Prefix(t) + "}"
	job, set := p+"job", p+"failed"
	cleanup(t, job, set)
	ctx := context.Background()
	if got := findingsOf(t, "LUA103/bad_keep_count.lua", Options{}); strings.Join(got, " ") != "LUA103 LUA102 LUA202" {
		t.Fatalf("checker: %v", got)
	}
	c.HSet(ctx, job, "opts", `{"removeOnFail":3}`)
	for _, members := range []int{5, 50} {
		for i := range members {
			if err := c.ZAdd(ctx, set, redis.Z{Score: float64(i), Member: i}).Err(); err != nil {
				t.Fatal(err)
			}
		}
		n, err := c.Eval(ctx, caseSource(t, "LUA103/bad_keep_count.lua"), []string{job, set, p + "job:"}).Int()
		if err != nil {
			t.Fatal(err)
		}
		if n != members-3 || c.ZCard(ctx, set).Val() != 3 {
			t.Errorf("%d members, keep 3: read %d, %d left", members, n, c.ZCard(ctx, set).Val())
		}
		c.Del(ctx, set)
	}
}

// TestRedisBatchesIterator: the batches loop over a whole LRANGE writes
// every item of the list, in as many passes as it has batches (LUA102).
func TestRedisBatchesIterator(t *testing.T) {
	c := redistest.Standalone(t)
	p := "{" + redistest.Prefix(t) + "}"
	active, stalled, paged := p+"active", p+"stalled", p+"paged"
	cleanup(t, active, stalled, paged)
	ctx := context.Background()
	items := make([]any, 15000)
	for i := range items {
		items[i] = i
	}
	if err := c.RPush(ctx, active, items...).Err(); err != nil {
		t.Fatal(err)
	}
	n, err := c.Eval(ctx, caseSource(t, "LUA102/bad_batches_iterator.lua"), []string{active, stalled, paged}).Int()
	if err != nil {
		t.Fatal(err)
	}
	if n != 15000 || c.SCard(ctx, stalled).Val() != 15000 || c.SCard(ctx, paged).Val() != 1000 {
		t.Errorf("read %d, marked %d, paged %d", n, c.SCard(ctx, stalled).Val(), c.SCard(ctx, paged).Val())
	}
}

// TestRedisStopFromSize checks what LUA103 says of GroupMQ's trim, "ZRANGE
// k 0 (ZCARD - keep - 1)": the read returns every member past the kept
// ones, so it grows with the set; while "LRANGE k (LLEN - 10) -1" returns
// at most 10, however long the list (a short list's negative start counts
// back from the end).
func TestRedisStopFromSize(t *testing.T) {
	c := redistest.Standalone(t)
	p := "{" + redistest.Prefix(t) + "}"
	set, list, zset := p+"completed", p+"log", p+"recent"
	cleanup(t, set, list, zset)
	ctx := context.Background()
	if got := findingsOf(t, "LUA103/bad_trim_to_card.lua", Options{}); strings.Join(got, " ") != "LUA103" {
		t.Fatalf("checker, trim: %v", got)
	}
	if got := findingsOf(t, "LUA103/good_tail_from_len.lua", Options{}); len(got) != 0 {
		t.Fatalf("checker, tail: %v", got)
	}
	for _, members := range []int{5, 50} {
		for i := range members {
			if err := c.ZAdd(ctx, set, redis.Z{Score: float64(i), Member: i}).Err(); err != nil {
				t.Fatal(err)
			}
			if err := c.ZAdd(ctx, zset, redis.Z{Score: float64(i), Member: i}).Err(); err != nil {
				t.Fatal(err)
			}
			if err := c.RPush(ctx, list, i).Err(); err != nil {
				t.Fatal(err)
			}
		}
		n, err := c.Eval(ctx, caseSource(t, "LUA103/bad_trim_to_card.lua"), []string{set}, 3).Int()
		if err != nil {
			t.Fatal(err)
		}
		if n != members-3 || c.ZCard(ctx, set).Val() != 3 {
			t.Errorf("trim, %d members, keep 3: read %d, %d left", members, n, c.ZCard(ctx, set).Val())
		}
		got, err := c.Eval(ctx, caseSource(t, "LUA103/good_tail_from_len.lua"), []string{list, zset}).Int64Slice()
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(min(members, 10)); len(got) != 2 || got[0] != want || got[1] != int64(members) {
			t.Errorf("tail, %d items: read %v, want [%d %d]", members, got, want, members)
		}
		c.Del(ctx, set, list, zset)
	}
}

// TestRedisLimitCountAll: a LIMIT count of -1 takes every member from the
// offset on (ZRANGEBYLEX, ZRANGEBYSCORE), so the view that passes -1 for
// a negative last reads the whole range and runs a command per member
// (LUA103 at the read, LUA102 at the loop).
func TestRedisLimitCountAll(t *testing.T) {
	c := redistest.Standalone(t)
	p := "{" + redistest.Prefix(t) + "}"
	lex, scores := p+"subs", p+"retained"
	cleanup(t, lex, scores)
	ctx := context.Background()
	if got := findingsOf(t, "LUA103/bad_limit_count_all_on_some_path.lua", Options{}); strings.Join(got, " ") != "LUA103 LUA102 LUA103" {
		t.Fatalf("checker: %v", got)
	}
	for _, n := range []int{20, 2000} {
		members := make([]redis.Z, n)
		for i := range members {
			members[i] = redis.Z{Member: fmt.Sprintf("t|topic%05d", i)}
		}
		if err := c.ZAdd(ctx, lex, members...).Err(); err != nil {
			t.Fatal(err)
		}
		for i := range members {
			members[i].Score = float64(i)
		}
		if err := c.ZAdd(ctx, scores, members...).Err(); err != nil {
			t.Fatal(err)
		}
		got, err := c.Eval(ctx, `return {#redis.call('ZRANGEBYLEX', KEYS[1], '-', '+', 'LIMIT', 0, -1),
  #redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '+inf', 'LIMIT', 5, -1)}`, []string{lex, scores}).Int64Slice()
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != int64(n) || got[1] != int64(n-5) {
			t.Errorf("%d members: LIMIT 0 -1 read %d, LIMIT 5 -1 read %d", n, got[0], got[1])
		}
		rows, err := c.Eval(ctx, caseSource(t, "LUA103/bad_limit_count_all_on_some_path.lua"), []string{lex, scores}, 0, -1).Slice()
		if err != nil {
			t.Fatal(err)
		}
		// One row per member for the patterns, none for "n|", and the
		// whole second set as the last row.
		if len(rows) != n+1 {
			t.Errorf("%d members: the view with last = -1 gave %d rows", n, len(rows))
		}
		c.Del(ctx, lex, scores)
	}
}

// TestRedisCallerRange: a range read by index whose start and stop the
// caller passes reads as many members as the caller asks, every member
// with a stop of -1, so a loop over it runs a command per member of the
// whole collection (LUA102 at the loop); clamped, it reads a page.
func TestRedisCallerRange(t *testing.T) {
	c := redistest.Standalone(t)
	p := "{" + redistest.Prefix(t) + "}"
	set, list, due := p+"nodes", p+"ids", p+"due"
	cleanup(t, set, list, due)
	ctx := context.Background()
	if got := findingsOf(t, "LUA102/bad_caller_range.lua", Options{}); strings.Join(got, " ") != "LUA102 LUA202 LUA102 LUA202 LUA102" {
		t.Fatalf("checker: %v", got)
	}
	if got := findingsOf(t, "LUA102/good_caller_range_clamped.lua", Options{}); len(got) != 0 {
		t.Fatalf("checker, clamped: %v", got)
	}
	for _, n := range []int{20, 2000} {
		members := make([]redis.Z, n)
		ids := make([]any, n)
		for i := range members {
			members[i] = redis.Z{Score: float64(i), Member: fmt.Sprintf("node%05d", i)}
			ids[i] = fmt.Sprintf("job%05d", i)
		}
		if err := c.ZAdd(ctx, set, members...).Err(); err != nil {
			t.Fatal(err)
		}
		if err := c.RPush(ctx, list, ids...).Err(); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			first, last string
			want, page  int
		}{{"0", "-1", n, n}, {"0", "9", 10, 10}, {"5", "-1", n - 5, n - 5}, {"0", "500", min(n, 501), min(n, 100)}} {
			rows, err := c.Eval(ctx, caseSource(t, "LUA102/bad_caller_range.lua"), []string{set, list, due}, tc.first, tc.last).Slice()
			if err != nil {
				t.Fatal(err)
			}
			// One row per member read, then the passes of the while
			// loop and of the loop over math.min's page.
			if len(rows) != tc.want+2 || rows[len(rows)-2] != int64(tc.want) {
				t.Errorf("%d members, range %s..%s: %d rows, %v passes, want %d", n, tc.first, tc.last, len(rows)-2, rows[len(rows)-2], tc.want)
			}
			// math.min(last, first + 99) caps a large stop, and lets a
			// stop of -1 read to the end.
			if rows[len(rows)-1] != int64(tc.page) {
				t.Errorf("%d members, range %s..%s: math.min's page ran %v passes, want %d", n, tc.first, tc.last, rows[len(rows)-1], tc.page)
			}
		}
		if err := c.ZAdd(ctx, due, members...).Err(); err != nil {
			t.Fatal(err)
		}
		rows, err := c.Eval(ctx, caseSource(t, "LUA102/good_caller_range_clamped.lua"), []string{set, due}, 0, -1, "+inf", 10).Slice()
		if err != nil {
			t.Fatal(err)
		}
		// The clamped read gives the first 100 members at most, and the
		// page of the LIMIT count removes 10.
		if want := min(n, 100); len(rows) != want+1 {
			t.Errorf("%d members, clamped: %d rows, want %d", n, len(rows)-1, want)
		}
		if left := c.ZCard(ctx, due).Val(); left != int64(n-10) {
			t.Errorf("%d members: the LIMIT page removed %d", n, int64(n)-left)
		}
		// A count turned into a stop (count - 1): a count of 0 moves
		// every member, 5 moves 5; the first + 99 page moves at most 100.
		for _, tc := range []struct {
			file     string
			keys     []string
			args     []any
			want     int64
			selfDesc string
		}{
			{"LUA102/bad_caller_count_stop.lua", []string{set, p + "to", list, p + "seen"}, []any{0, 0}, int64(n), "count 0"},
			{"LUA102/bad_caller_count_stop.lua", []string{set, p + "to", list, p + "seen"}, []any{5, 5}, 5, "count 5"},
			{"LUA102/good_caller_page_after_start.lua", []string{set, p + "to"}, []any{0}, int64(min(n, 100)), "page after the start"},
		} {
			c.Del(ctx, p+"to", p+"seen")
			if err := c.Eval(ctx, caseSource(t, tc.file), tc.keys, tc.args...).Err(); err != nil {
				t.Fatalf("%s: %v", tc.file, err)
			}
			if got := c.ZCard(ctx, p+"to").Val() + c.SCard(ctx, p+"to").Val(); got != tc.want {
				t.Errorf("%d members, %s: %d moved, want %d", n, tc.selfDesc, got, tc.want)
			}
		}
		c.Del(ctx, set, list, due, p+"to", p+"seen")
	}
	if got := findingsOf(t, "LUA102/bad_caller_count_stop.lua", Options{}); strings.Join(got, " ") != "LUA102 LUA102" {
		t.Errorf("checker on count - 1 stops: %v", got)
	}
	if got := findingsOf(t, "LUA102/good_caller_page_after_start.lua", Options{}); len(got) != 0 {
		t.Errorf("checker on a page after the start: %v", got)
	}
}

// TestRedisSizeOrDefault: "(ZCARD k or 0)" is still the set's size, so a
// range stop computed from it reads all but the kept members: the read
// and the loop over it grow with the set.
func TestRedisSizeOrDefault(t *testing.T) {
	c := redistest.Standalone(t)
	p := "{" + redistest.Prefix(t) + "}"
	set, hash := p+"completed", p+"jobs"
	cleanup(t, set, hash)
	ctx := context.Background()
	if got := findingsOf(t, "LUA103/bad_size_or_default.lua", Options{}); strings.Join(got, " ") != "LUA103 LUA102" {
		t.Fatalf("checker: %v", got)
	}
	for _, n := range []int{20, 2000} {
		members := make([]redis.Z, n)
		for i := range members {
			members[i] = redis.Z{Score: float64(i), Member: fmt.Sprintf("job%05d", i)}
		}
		if err := c.ZAdd(ctx, set, members...).Err(); err != nil {
			t.Fatal(err)
		}
		got, err := c.Eval(ctx, caseSource(t, "LUA103/bad_size_or_default.lua"), []string{set, hash}, 5).Int()
		if err != nil {
			t.Fatal(err)
		}
		if got != n-5 {
			t.Errorf("%d members, keep 5: the read took %d, want %d", n, got, n-5)
		}
		c.Del(ctx, set)
	}
}

// TestRedisArgvEachPass checks what LUA102 assumes of a loop whose every
// pass builds a key from ARGV[1 + i]: past the last argument the entry is
// nil and ".." (or arithmetic) fails the script, so the passes that ran,
// counted by an INCR after the read, are the entries the request carries
// however large the count it passes; a pass that only copies the entry
// runs as often as the count says. Effects before the error stay (a
// script is not rolled back), which is what lets the counter show it.
func TestRedisArgvEachPass(t *testing.T) {
	c := redistest.Standalone(t)
	p := "{" + redistest.Prefix(t) + "}"
	counter := p + "passes"
	cleanup(t, counter)
	ctx := context.Background()

	if got := findingsOf(t, "LUA102/good_count_of_argv_entries.lua", Options{}); len(got) != 0 {
		t.Fatalf("checker on the good case: %v", got)
	}
	src := caseSource(t, "LUA102/good_count_of_argv_entries.lua")
	types, err := c.Eval(ctx, src, []string{p + "q:"}, 3, "active", "wait", "done", 2, "x", "y").StringSlice()
	if err != nil || len(types) != 3 {
		t.Fatalf("count matching the entries: %v, %v", types, err)
	}
	err = c.Eval(ctx, src, []string{p + "q:"}, 1000000000, "active", "wait", "done").Err()
	if err == nil || !strings.Contains(err.Error(), "attempt to concatenate") {
		t.Fatalf("count past the entries: got %v, want the concatenation error", err)
	}

	// getter takes the next argument at a cursor it advances, as a
	// workflow engine's scripts read their variable-length requests.
	const getter = "local at = 2\nlocal nextArg = function()\n  local arg = ARGV[at]\n  at = at + 1\n  return arg\nend\n"
	loops := []struct {
		name, pre, use string
		raises         bool
		passes         int // when it raises: the passes before; 0 for one per ARGV entry
	}{
		{"concatenation", "", "local key = KEYS[2] .. ARGV[1 + i]", true, 0},
		{"arithmetic", "", "local n = 0 + ARGV[1 + i]", true, 0},
		{"copy", "", "local entry = ARGV[1 + i]", false, 0},
		{"command argument", "", "redis.call('SET', KEYS[2] .. 'last', ARGV[1 + i])", true, 0},
		{"copy, then a command argument", "", "local entry = ARGV[1 + i]\n  redis.call('SET', KEYS[2] .. 'last', entry)", true, 0},
		{"pcall argument", "", "redis.pcall('SET', KEYS[2] .. 'last', ARGV[1 + i])", false, 0},
		{"getter, then a command argument", getter, "local entry = nextArg()\n  redis.call('SET', KEYS[2] .. 'last', entry)", true, 0},
		{"getter, then a concatenation", getter, "local key = KEYS[2] .. nextArg()", true, 0},
		{"getter, then a copy", getter, "local entry = nextArg()", false, 0},
		{"getter, then a pcall argument", getter, "redis.pcall('SET', KEYS[2] .. 'last', nextArg())", false, 0},
		{"getter, then an inner loop's limit", getter, "local events = tonumber(nextArg())\n  for j = 1, events do end", true, 0},
		{"an inner loop's limit", "", "for j = 1, ARGV[1 + i] do end", true, 0},
		{"a number copied", "", "local events = tonumber(ARGV[1 + i])", false, 0},
		{"an inner loop's limit under a condition", "", "local events = tonumber(ARGV[1 + i])\n  if i > 1 then events = 1 end", false, 0},
		{"key as a command argument", "", "redis.call('EXISTS', KEYS[i])", true, 2},
		{"key in a pcall", "", "redis.pcall('EXISTS', KEYS[i])", false, 0},
	}
	for _, l := range loops {
		script := fmt.Sprintf("%sfor i = 1, tonumber(ARGV[1]) do\n  %s\n  redis.call('INCR', KEYS[1])\nend\nreturn 0\n", l.pre, l.use)
		c.Del(ctx, counter)
		const count, entries = 5000, 3
		err := c.Eval(ctx, script, []string{counter, p + "q:"}, count, 7, 8, 9).Err()
		passes, gerr := c.Get(ctx, counter).Int()
		if gerr != nil {
			t.Fatalf("%s: %v", l.name, gerr)
		}
		want := count
		if l.raises {
			want = entries
			if l.passes > 0 {
				want = l.passes
			}
			if err == nil {
				t.Errorf("%s: the script did not fail past the last argument", l.name)
			}
		} else if err != nil {
			t.Errorf("%s: %v", l.name, err)
		}
		if passes != want {
			t.Errorf("%s: %d passes ran, want %d", l.name, passes, want)
		}
		// The outer loop's finding: an inner loop to an entry is
		// reported on its own line.
		outer, reported := strings.Count(l.pre, "\n")+1, false
		for _, f := range Check([]byte(script), Options{}) {
			reported = reported || f.Rule == RuleInputBound && f.Pos.Line == outer
		}
		if reported == l.raises {
			t.Errorf("%s: LUA102 reported %v, want %v", l.name, reported, !l.raises)
		}
	}

	// A loop to the same count after one whose every pass raised past the
	// last key runs at most as many passes as there are keys: the script
	// fails in the first loop otherwise (Seata's lock script).
	const twoLoops = "local n = tonumber(ARGV[1])\nfor i = 1, n do\n  redis.call('EXISTS', KEYS[i])\nend\n" +
		"for i = 1, n do\n  redis.call('INCR', KEYS[1])\nend\nreturn 0\n"
	for _, n := range []int{2, 5000} {
		c.Del(ctx, counter)
		err := c.Eval(ctx, twoLoops, []string{counter, p + "q:"}, n).Err()
		passes, _ := c.Get(ctx, counter).Int()
		if n == 2 && (err != nil || passes != 2) || n > 2 && (err == nil || passes != 0) {
			t.Errorf("two loops to %d with 2 keys: %d passes of the second, error %v", n, passes, err)
		}
	}
	if got := rules(Check([]byte(twoLoops), Options{})); len(got) != 0 {
		t.Errorf("checker on two loops to the same count: %v, want nothing", got)
	}
}

// TestRedisClockWait checks on a real server what LUA102 says of a loop
// that waits on TIME for a deadline the caller passes: TIME moves while
// the script runs, so the loop ends, but only at the caller's deadline, and
// no other client's command runs in between. The test starts its own
// server, since the script blocks it on purpose.
func TestRedisClockWait(t *testing.T) {
	srv := redistest.StartServer(t)
	c, other := srv.Client(t), srv.Client(t)
	ctx := context.Background()
	const script = `
local function nowMicros()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local start = nowMicros()
local deadline = start + tonumber(ARGV[1]) * 1000
while nowMicros() < deadline do
  redis.call('INCR', KEYS[1])
end
return {start, nowMicros()}`
	if got := rules(Check([]byte(script), Options{})); !slices.Contains(got, RuleInputBound) {
		t.Fatalf("the checker does not report the wait as LUA102: %v", got)
	}
	micros := func(v int64) time.Duration { return time.Duration(v) * time.Microsecond }
	after := 0
	for _, wait := range []int64{10, 60, 60, 60} {
		// Another client asks for the time while the script waits: the
		// server answers it before the script starts or after it ends.
		asked := make(chan int64, 1)
		go func() {
			time.Sleep(time.Duration(wait) * time.Millisecond / 3)
			tm, err := other.Time(ctx).Result()
			if err != nil {
				t.Error(err)
			}
			asked <- tm.UnixMicro()
		}()
		// Were TIME to stand still, the script would never end: the
		// deadline turns that into a failure, and the cleanup kills
		// the server.
		evalCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
		got, err := c.Eval(evalCtx, script, []string{"waits"}, wait).Int64Slice()
		cancel()
		if err != nil {
			t.Fatalf("wait of %d ms: %v", wait, err)
		}
		start, end := got[0], got[1]
		if elapsed := micros(end - start); elapsed < time.Duration(wait)*time.Millisecond {
			t.Errorf("wait of %d ms ended after %v by the server's clock", wait, elapsed)
		}
		at := <-asked
		switch {
		case at > start && at < end:
			t.Errorf("another client's TIME ran %v into a %d ms script", micros(at-start), wait)
		case at >= end:
			after++
		}
	}
	if after == 0 {
		t.Errorf("no other client's command was sent while a script waited: nothing was checked")
	}
}
