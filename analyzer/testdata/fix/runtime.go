package fix

import (
	"fmt"
	"time"

	rt "github.com/slotlint/slotlint/runtime"
)

// A lock key needs a hash tag; the fix builds it with the runtime's Key,
// under the name the file imports the runtime by.
func locks(c *rt.Client, id string, n int) {
	c.Obtain(ctx, "plainlock", time.Second, nil)                     // want `Obtain key "plainlock" \(slot 7983\) has no hash tag`
	c.Obtain(ctx, "lock:42", time.Second, nil)                       // want `Obtain key "lock:42" \(slot \d+\) has no hash tag`
	c.Obtain(ctx, "order:"+id+":lock", time.Second, nil)             // want `Obtain key "order:" \+ id \+ ":lock" has no hash tag`
	c.Obtain(ctx, fmt.Sprintf("job:%s", id), time.Second, nil)       // want `Obtain key "job:" \+ id has no hash tag`
	c.Obtain(ctx, fmt.Sprintf("job:%d", n), time.Second, nil)        // want `Obtain key "job:" \+ n has no hash tag`
	c.LockAndSet(ctx, "cart:"+id, time.Second, rt.StateWrite{}, nil) // want `LockAndSet key "cart:" \+ id has no hash tag`
}
