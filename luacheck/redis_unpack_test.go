package luacheck

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
)

// TestRedisUnpackLimit runs LUA104's cases on the server: unpack of a
// table of 7,999 elements passes and of 8,000 fails with "too many
// results to unpack", after the script's earlier writes, which Redis
// keeps; the same script's copy of 20,000 passes in slices.
func TestRedisUnpackLimit(t *testing.T) {
	if got := strings.Join(findingsOf(t, "LUA104/bad_unpack_whole.lua", Options{}), " "); strings.Count(got, RuleUnpackWhole) != 3 {
		t.Fatalf("checker: %s", got)
	}
	if got := findingsOf(t, "LUA104/good_unpack_bounded.lua", Options{}); len(got) != 0 {
		t.Fatalf("checker on the good case: %v", got)
	}
	c := redistest.Standalone(t)
	p := "{" + redistest.Prefix(t) + "}"
	done, archive, copied, seen := p+"done", p+"archive", p+"copied", p+"seen"
	cleanup(t, done, archive, copied, seen)
	ctx := context.Background()
	fill := func(n int) {
		t.Helper()
		c.Del(ctx, done, archive)
		for from := 0; from < n; from += 5000 {
			var zs []redis.Z
			for i := from; i < min(from+5000, n); i++ {
				zs = append(zs, redis.Z{Score: float64(i), Member: strconv.Itoa(i)})
			}
			if err := c.ZAdd(ctx, done, zs...).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	bad := caseSource(t, "LUA104/bad_unpack_whole.lua")
	keys := []string{done, archive, copied, seen}

	fill(7999)
	if _, err := evalErr(ctx, c, bad, keys, 0); err != nil {
		t.Fatalf("7,999 elements: %v", err)
	}
	if n := c.SCard(ctx, archive).Val(); n != 7999 {
		t.Errorf("7,999 elements: %d archived", n)
	}

	fill(8000)
	_, err := evalErr(ctx, c, bad, keys, 0)
	if err == nil || !strings.Contains(err.Error(), "too many results to unpack") {
		t.Fatalf("8,000 elements: %v, want \"too many results to unpack\"", err)
	}
	// The trim ran before the unpack and stays: the ids are gone from the
	// set and none was archived.
	if n, a := c.ZCard(ctx, done).Val(), c.SCard(ctx, archive).Val(); n != 0 || a != 0 {
		t.Errorf("8,000 elements: %d left in the set, %d archived; want the trim kept and nothing archived", n, a)
	}

	// The same whole set copied in slices passes; in one unpack, not.
	members := make([]any, 20000)
	for i := range members {
		members[i] = i
	}
	c.Del(ctx, archive, copied)
	if err := c.SAdd(ctx, archive, members...).Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := evalErr(ctx, c, bad, keys, 1<<30, "slices"); err != nil {
		t.Fatalf("slices of 20,000: %v", err)
	}
	if n, left := c.SCard(ctx, copied).Val(), c.SCard(ctx, archive).Val(); n != 20000 || left != 0 {
		t.Errorf("slices of 20,000: %d copied, %d left; want 20,000 and 0", n, left)
	}
	c.Del(ctx, copied)
	c.SAdd(ctx, archive, members...)
	_, err = evalErr(ctx, c, bad, keys, 1<<30, "copy")
	if err == nil || !strings.Contains(err.Error(), "too many results to unpack") {
		t.Errorf("one unpack of 20,000: %v, want \"too many results to unpack\"", err)
	}
}
