// Package jointonce has a call that is two joint uses at one position: a
// runtime operation whose keys must share a slot, and whose lock key
// must share one with its wake-up list.
package jointonce

import (
	"context"
	"time"

	"github.com/slotlint/slotlint/runtime"
)

var ctx = context.Background()

func lockAndSet(locks *runtime.Client) {
	locks.LockAndSet(ctx, "lock:1", time.Second, runtime.StateWrite{Key: "state:1", Field: "f", Value: "v", TTL: time.Minute}, nil)
}
