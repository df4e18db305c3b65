package runtime

import (
	"context"
	"fmt"
	"time"
)

// DecrementIfAvailable takes n from the integer counter at key if at least n
// is left, atomically, and returns what is left. When fewer than n are left
// it changes nothing and returns ErrInsufficient with the amount left; a
// missing key is ErrNotFound and a value that is not an integer (of at most
// 15 digits) is ErrWrongType, so a mistyped key is never read as zero stock.
func (c *Client) DecrementIfAvailable(ctx context.Context, key string, n int64) (left int64, err error) {
	if err := c.ready(); err != nil {
		return 0, err
	}
	if key == "" {
		return 0, invalidArg("empty counter key")
	}
	if n <= 0 || n > 999_999_999_999_999 {
		return 0, invalidArg("decrement %d is not in 1..10^15-1", n)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	reply, err := c.run(ctx, decrementScript, []string{key}, n)
	if err != nil {
		return 0, fmt.Errorf("decrementing %q: %w", key, err)
	}
	v, err := parseInts(reply, 2, 2)
	if err != nil {
		return 0, fmt.Errorf("decrementing %q: %w", key, err)
	}
	if v[0] != 0 && v[0] != 1 {
		return 0, fmt.Errorf("decrementing %q: unexpected reply %v", key, reply)
	}
	if v[0] == 0 {
		return v[1], fmt.Errorf("%w: %q has %d, %d wanted", ErrInsufficient, key, v[1], n)
	}
	return v[1], nil
}

// IssueOnce issues one item of a pool of capacity items to user: the set at
// key holds the users served, and its size never exceeds capacity. It
// returns the number issued so far. A user who already holds an item gets
// ErrAlreadyIssued (checked first, so repeating a successful call reports
// that, whatever the stock); a full pool gets ErrExhausted. Neither changes
// anything.
func (c *Client) IssueOnce(ctx context.Context, key, user string, capacity int64) (issued int64, err error) {
	if err := c.ready(); err != nil {
		return 0, err
	}
	if key == "" {
		return 0, invalidArg("empty pool key")
	}
	if user == "" {
		return 0, invalidArg("empty user")
	}
	if capacity <= 0 {
		return 0, invalidArg("capacity %d is not positive", capacity)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	reply, err := c.run(ctx, issueOnceScript, []string{key}, user, capacity)
	if err != nil {
		return 0, fmt.Errorf("issuing from %q: %w", key, err)
	}
	v, err := parseInts(reply, 2, 2)
	if err != nil {
		return 0, fmt.Errorf("issuing from %q: %w", key, err)
	}
	switch v[0] {
	case 1:
		return v[1], nil
	case 0:
		return v[1], fmt.Errorf("%w: %q in %q", ErrAlreadyIssued, user, key)
	case -1:
		return v[1], fmt.Errorf("%w: %q has issued %d of %d", ErrExhausted, key, v[1], capacity)
	}
	return 0, fmt.Errorf("issuing from %q: unexpected reply %v", key, v)
}

// IncrWindow adds n to the fixed-window counter at key and returns the
// count and the time left in the window. The increment that creates the key
// gives it the window as its TTL in the same step, so no crash or timeout
// between two commands can leave a counter that never expires (what
// slotlint's SL1305 reports in INCR, then EXPIRE when the count is 1); one
// that finds the key without a TTL (written by other code) gives it the
// window too. Later increments leave the TTL alone: the window is fixed,
// not sliding. A key holding anything but an integer of at most 15 digits
// is ErrWrongType, and nothing is changed.
func (c *Client) IncrWindow(ctx context.Context, key string, n int64, window time.Duration) (count int64, left time.Duration, err error) {
	if err := c.ready(); err != nil {
		return 0, 0, err
	}
	if key == "" {
		return 0, 0, invalidArg("empty counter key")
	}
	if n <= 0 || n > 999_999_999_999_999 {
		return 0, 0, invalidArg("increment %d is not in 1..10^15-1", n)
	}
	if window < time.Millisecond {
		return 0, 0, invalidArg("window %v is under a millisecond", window)
	}
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	reply, err := c.run(ctx, countWindowScript, []string{key}, n, window.Milliseconds())
	if err != nil {
		return 0, 0, fmt.Errorf("counting %q: %w", key, err)
	}
	v, err := parseInts(reply, 2, 2)
	if err != nil {
		return 0, 0, fmt.Errorf("counting %q: %w", key, err)
	}
	if v[1] < 0 {
		return 0, 0, fmt.Errorf("counting %q: unexpected reply %v", key, reply)
	}
	return v[0], time.Duration(v[1]) * time.Millisecond, nil
}
