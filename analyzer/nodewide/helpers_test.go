package nodewide_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// keyCount is how many keys the routing tests write: enough that every
// master or shard holds some.
const keyCount = 300

// fillKeys writes k:0 .. k:keyCount-1 through c, routed by each key.
func fillKeys(t *testing.T, ctx context.Context, c redis.Cmdable) {
	t.Helper()
	for i := range keyCount {
		if err := c.Set(ctx, fmt.Sprintf("k:%d", i), 1, 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
}

// keysLeft counts the keys of fillKeys that still exist, each asked of
// the server its key routes to.
func keysLeft(t *testing.T, ctx context.Context, c redis.Cmdable) int {
	t.Helper()
	m := 0
	for i := range keyCount {
		m += int(c.Exists(ctx, fmt.Sprintf("k:%d", i)).Val())
	}
	return m
}

// functionMissing calls function fn for 30 keys through c, each routed by
// its key, and counts the calls that find no such function.
func functionMissing(t *testing.T, ctx context.Context, c redis.Cmdable, fn string) int {
	t.Helper()
	missing := 0
	for i := range 30 {
		err := c.FCall(ctx, fn, []string{fmt.Sprintf("k:%d", i)}).Err()
		switch {
		case err == nil:
		case strings.Contains(err.Error(), "Function not found"):
			missing++
		default:
			t.Fatalf("FCALL: %v", err)
		}
	}
	return missing
}
