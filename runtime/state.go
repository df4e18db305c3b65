package runtime

import (
	"context"
	"fmt"
	"time"
)

// StateWrite is one field of a state hash guarded by a lock. The state key
// must share the lock key's hash tag, e.g. Key("order", id, "state") next to
// Key("order", id, "lock"). The hash field "__fence" is reserved: it records
// the fencing token of the last write.
type StateWrite struct {
	Key   string
	Field string
	Value string
	// TTL of the state hash, set on every write; at least 1ms.
	TTL time.Duration
}

func (w StateWrite) check(lockKey string) (int64, error) {
	if w.Key == "" {
		return 0, invalidArg("empty state key")
	}
	if w.Field == "" || w.Field == "__fence" {
		return 0, invalidArg("state field %q is empty or reserved", w.Field)
	}
	ms, err := ttlMillis("state TTL", w.TTL)
	if err != nil {
		return 0, err
	}
	if err := SameSlot(lockKey, w.Key); err != nil {
		return 0, err
	}
	return ms, nil
}

// LockAndSet takes the lock at key (or re-enters it with opts.Token) and
// writes w, in one script: either both happen or, when another owner holds
// the lock, neither. It waits like Obtain unless opts.NoWait is set, and
// returns the same errors, plus ErrCrossSlot when w.Key does not share the
// lock key's slot and ErrWrongType when the state key is not a hash.
func (c *Client) LockAndSet(ctx context.Context, key string, ttl time.Duration, w StateWrite, opts *ObtainOptions) (*Lock, error) {
	if err := c.ready(); err != nil {
		return nil, err
	}
	req, err := c.newObtainRequest(key, ttl, opts)
	if err == nil {
		var stateMS int64
		if stateMS, err = w.check(key); err == nil {
			req.script = lockAndSetScript
			req.keys = []string{req.key, req.fenceKey, w.Key, req.queueKey}
			req.args = []any{req.token, req.ttlMS, w.Field, w.Value, stateMS, "-", c.queueHold(), c.handoffArg}
			req.place = "-"
		}
	}
	if err != nil {
		c.hooks.ObtainDone(key, 0, 0, err)
		return nil, err
	}
	return c.obtain(ctx, req)
}

// SetState writes w only while this owner still holds the lock and only if
// the lock's fencing token is not older than that of the state's last write.
// It fails with ErrLockLost when the lock expired or was taken over, and with
// ErrStaleFence when a newer holder already wrote the state; in both cases
// nothing is written.
func (l *Lock) SetState(ctx context.Context, w StateWrite) error {
	if err := l.obtained(); err != nil {
		return err
	}
	ms, err := w.check(l.key)
	if err != nil {
		return err
	}
	if err := l.usable(ctx); err != nil {
		return err
	}
	reply, err := l.c.run(ctx, setStateScript, []string{l.key, w.Key}, l.token, l.fence, w.Field, w.Value, ms)
	if err != nil {
		return fmt.Errorf("writing state %q: %w", w.Key, err)
	}
	n, err := parseInt(reply)
	if err != nil {
		return fmt.Errorf("writing state %q: %w", w.Key, err)
	}
	switch n {
	case 1:
		return nil
	case 0:
		return fmt.Errorf("%w: %q expired or has another owner", ErrLockLost, l.key)
	default:
		return fmt.Errorf("%w: fencing token %d of %q is older than the state's", ErrStaleFence, l.fence, l.key)
	}
}
