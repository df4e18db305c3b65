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

// orderID is a string type of the caller's: the id goes to Key as a
// string. label prints otherwise with %s than its text, so its key is not
// rewritten.
type (
	orderID string
	label   string
)

func (l label) String() string { return "label " + string(l) }

func namedIDs(c *rt.Client, id orderID, l label) {
	c.Obtain(ctx, fmt.Sprintf("job:%s", id), time.Second, nil)      // want `Obtain key "job:" \+ id has no hash tag`
	c.Obtain(ctx, fmt.Sprintf("job:%s:lock", id), time.Second, nil) // want `Obtain key "job:" \+ id \+ ":lock" has no hash tag`
	c.Obtain(ctx, fmt.Sprintf("job:%s", l), time.Second, nil)       // want `Obtain key "job:" \+ l has no hash tag`
	c.Obtain(ctx, "job:"+string(id), time.Second, nil)              // want `Obtain key "job:" \+ id has no hash tag`
}
