package hashtag

import (
	"time"

	"github.com/slotlint/slotlint/runtime"
)

// The runtime's keys are keys like a client's.
func runtimeKeys(c *runtime.Client, id string) {
	c.Obtain(ctx, "order:{}:lock", time.Second, nil) // want `key "order:\{\}:lock" has an empty hash tag \{\}: Redis ignores it and hashes the whole key`
	c.DecrementIfAvailable(ctx, "{stock}:"+id, 1)    // want `key "\{stock\}:" \+ id has the constant hash tag \{stock\}: every key of the family is in slot \d+ \(hot shard\)`
	c.IssueOnce(ctx, runtime.Key("pool", id), "u", 10)
	c.IncrWindow(ctx, "hits:{}"+id, 1, time.Minute) // want `key "hits:\{\}" \+ id has an empty hash tag \{\}: Redis ignores it and hashes the whole key`
}
