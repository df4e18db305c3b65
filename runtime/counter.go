package runtime

import (
	"context"
	"fmt"
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
	if err != nil || (v[0] != 0 && v[0] != 1) {
		return 0, fmt.Errorf("decrementing %q: unexpected reply %v: %w", key, reply, err)
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
