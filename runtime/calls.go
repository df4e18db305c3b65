package runtime

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// FencingKey returns the fencing counter of the lock at lockKey: the
// counter of the key's hash slot, shared by the slot's locks (see
// Lock.Fence). The obtain, release and lock_and_set scripts take it as
// KEYS[2] in RunPipelined.
func FencingKey(lockKey string) string { return fencingKey(lockKey) }

// WakeKey returns the wake-up queue of the lock at lockKey,
// lockKey+":wake": a sorted set of the callers waiting for the lock, first
// come first served. The obtain and release scripts take it as KEYS[3],
// and lock_and_set as KEYS[4], in RunPipelined. It shares the lock key's
// slot when the lock key has a hash tag, as does the wake-up list of each
// queued caller, WakeKey(lockKey)+":"+place.
func WakeKey(lockKey string) string { return derivedKey(lockKey, "wake") }

// callForm is what a script takes: its KEYS, named for messages, a check of
// how they relate, and the form of each ARGV.
type callForm struct {
	keys     []string
	keyCheck func(keys []string) error
	args     []argKind
}

// argKind is the form of one ARGV, as the script reads it.
type argKind uint8

const (
	argText      argKind = iota // a non-empty string (a token, a member, a user)
	argAny                      // any string, empty included (a state value)
	argField                    // a state field: non-empty, not "__fence"
	argMillis                   // a time in milliseconds, at least 1
	argPositive                 // an integer of at least 1 (a fencing token, a cap)
	argInteger                  // a decimal integer of any sign and length
	argDecrement                // an integer in 1..10^15-1
	argQueue                    // "-", or an integer of at least 0
)

var decimal = regexp.MustCompile(`^-?[0-9]+$`)

// check reports a call that its script would reject with a Lua error or
// run with a meaning the caller cannot have intended.
func (call Call) check() error {
	s := call.Script
	if s == nil || s.sha == "" {
		return invalidArg("no script of this package")
	}
	f := s.form
	if len(call.Keys) != len(f.keys) {
		return invalidArg("%s takes %d keys (%v), not %d", s.name, len(f.keys), f.keys, len(call.Keys))
	}
	if err := SameSlot(call.Keys...); err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	if f.keyCheck != nil {
		if err := f.keyCheck(call.Keys); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	if len(call.Args) != len(f.args) {
		return invalidArg("%s takes %d arguments, not %d", s.name, len(f.args), len(call.Args))
	}
	for i, a := range call.Args {
		v, ok := argString(a)
		if !ok {
			return invalidArg("%s: ARGV[%d] is a %T; pass a string or a number", s.name, i+1, a)
		}
		if !f.args[i].accepts(v) {
			return invalidArg("%s: ARGV[%d] %q is not %s", s.name, i+1, v, f.args[i])
		}
	}
	return nil
}

func fencingCounterSecond(keys []string) error {
	if want := fencingKey(keys[0]); keys[1] != want {
		return invalidArg("KEYS[2] %q is not the fencing counter of %q: use FencingKey (%q)", keys[1], keys[0], want)
	}
	return nil
}

// lockKeysCheck checks the keys of obtain and release: the lock, its
// fencing counter and its queue.
func lockKeysCheck(keys []string) error {
	if err := fencingCounterSecond(keys); err != nil {
		return err
	}
	return queueKeyAt(keys, 2)
}

// lockAndSetKeys checks the keys of lock_and_set: the lock, its fencing
// counter, the state and the lock's queue.
func lockAndSetKeys(keys []string) error {
	if err := fencingCounterSecond(keys); err != nil {
		return err
	}
	return queueKeyAt(keys, 3)
}

func queueKeyAt(keys []string, i int) error {
	if want := WakeKey(keys[0]); keys[i] != want {
		return invalidArg("KEYS[%d] %q is not the wake-up queue of %q: use WakeKey (%q)", i+1, keys[i], keys[0], want)
	}
	return nil
}

// argString returns an argument as go-redis writes it, for the types whose
// form is plain; ok is false for others.
func argString(a any) (s string, ok bool) {
	switch v := a.(type) {
	case string:
		return v, true
	case []byte:
		return string(v), true
	case int:
		return strconv.FormatInt(int64(v), 10), true
	case int8:
		return strconv.FormatInt(int64(v), 10), true
	case int16:
		return strconv.FormatInt(int64(v), 10), true
	case int32:
		return strconv.FormatInt(int64(v), 10), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case uint:
		return strconv.FormatUint(uint64(v), 10), true
	case uint8:
		return strconv.FormatUint(uint64(v), 10), true
	case uint16:
		return strconv.FormatUint(uint64(v), 10), true
	case uint32:
		return strconv.FormatUint(uint64(v), 10), true
	case uint64:
		return strconv.FormatUint(v, 10), true
	case time.Duration:
		// go-redis writes a Duration as nanoseconds, which a script
		// reading milliseconds takes a million times too long.
		return "", false
	}
	return "", false
}

func (k argKind) accepts(v string) bool {
	switch k {
	case argText:
		return v != ""
	case argAny:
		return true
	case argField:
		return v != "" && v != "__fence"
	case argInteger:
		return decimal.MatchString(v)
	case argQueue:
		if v == "-" {
			return true
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return false
	}
	switch k {
	case argMillis, argPositive:
		return n >= 1
	case argDecrement:
		return n >= 1 && n <= 999_999_999_999_999
	case argQueue:
		return n >= 0
	}
	return false
}

func (k argKind) String() string {
	switch k {
	case argText:
		return "a non-empty string"
	case argAny:
		return "a string"
	case argField:
		return `a state field (non-empty, not "__fence")`
	case argMillis:
		return "a time in milliseconds of at least 1"
	case argPositive:
		return "an integer of at least 1"
	case argInteger:
		return "a decimal integer"
	case argDecrement:
		return "an integer in 1..10^15-1"
	case argQueue:
		return `"-" or an integer of at least 0`
	}
	return "valid"
}
