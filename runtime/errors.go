package runtime

import (
	"errors"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Errors returned by the package. Every error it returns that stems from one
// of these conditions wraps the matching value, so callers test with
// errors.Is; the message adds the key and the detail. Other errors (Redis's
// own, such as OOM or READONLY, a connection failure, the end of a context)
// are returned wrapped as they came, so go-redis's helpers
// (redis.IsOOMError) and errors.Is(err, context.DeadlineExceeded) apply.
var (
	// ErrInvalidArgument reports an argument rejected before any round trip:
	// an empty key, a TTL that is not at least one millisecond, a count that
	// is not positive.
	ErrInvalidArgument = errors.New("runtime: invalid argument")

	// ErrCrossSlot reports keys of one operation that hash to different
	// Redis Cluster slots. It is returned before any round trip, on every
	// kind of client, so a key design that only works on a single server
	// fails in tests rather than on the cluster.
	ErrCrossSlot = errors.New("runtime: keys of one operation are in different hash slots")

	// ErrWrongType reports a key that holds a value of another type or
	// format than the operation needs. The scripts check TYPE before any
	// write, so nothing has been written when this is returned.
	ErrWrongType = errors.New("runtime: key holds the wrong kind of value")

	// ErrNotObtained reports a lock held by another owner: after the one
	// attempt of an Obtain or LockAndSet with ObtainOptions.NoWait, or when
	// the context of a waiting one ends.
	ErrNotObtained = errors.New("runtime: lock not obtained")

	// ErrLockLost reports a lock that this owner no longer holds: it expired
	// and may have been taken by another owner, or it was already released.
	ErrLockLost = errors.New("runtime: lock not held")

	// ErrMaxHold is the cause of a KeepAlive context cancelled because the
	// lock was held for the maximum hold time.
	ErrMaxHold = errors.New("runtime: maximum hold time reached")

	// ErrStaleFence reports a guarded state update whose fencing token is
	// older than the one that last wrote the state.
	ErrStaleFence = errors.New("runtime: stale fencing token")

	// ErrNotFound reports a counter key that does not exist.
	ErrNotFound = errors.New("runtime: key does not exist")

	// ErrInsufficient reports a decrement that would take a counter below
	// zero; nothing was changed.
	ErrInsufficient = errors.New("runtime: not enough left")

	// ErrAlreadyIssued reports a user who already holds one of the items of
	// an IssueOnce pool; nothing was changed.
	ErrAlreadyIssued = errors.New("runtime: already issued to this user")

	// ErrExhausted reports an IssueOnce pool whose cap has been reached.
	ErrExhausted = errors.New("runtime: all items issued")
)

func invalidArg(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidArgument, fmt.Sprintf(format, args...))
}

// scriptError maps the errors the package's scripts raise to the package's
// errors. The scripts prefix their own errors with a code word (as Redis does
// with WRONGTYPE) followed by the detail.
func scriptError(err error) error {
	var rerr redis.Error
	if !errors.As(err, &rerr) {
		return err
	}
	msg := rerr.Error()
	for _, m := range []struct {
		prefix string
		err    error
	}{
		{"WRONGTYPE ", ErrWrongType},
		{"NOTFOUND ", ErrNotFound},
		{"INVALID ", ErrInvalidArgument},
	} {
		if detail, ok := strings.CutPrefix(msg, m.prefix); ok {
			return fmt.Errorf("%w: %s", m.err, trimScriptContext(detail))
		}
	}
	return err
}

// trimScriptContext drops the " script: <sha>, on @user_script:N." suffix
// that Redis appends to errors raised inside scripts.
func trimScriptContext(msg string) string {
	if i := strings.Index(msg, " script: "); i >= 0 {
		return msg[:i]
	}
	return msg
}
