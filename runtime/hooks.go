package runtime

import "time"

// Hooks receives events worth measuring. Implementations feed them to the
// metrics or tracing library of the program; the package depends on none.
// Methods are called synchronously on the goroutine doing the work, so they
// must be fast and safe for concurrent use. Embed NopHooks to implement only
// some of them.
type Hooks interface {
	// ObtainDone reports the end of Obtain or LockAndSet: how many script
	// calls it made, how long it took from the call to the outcome, and its
	// error (nil when the lock was obtained).
	ObtainDone(key string, attempts int, latency time.Duration, err error)

	// Contended reports an attempt that found the lock held by another
	// owner, with the holder's remaining TTL (negative when unknown).
	Contended(key string, holderTTL time.Duration)

	// RenewFailed reports a KeepAlive renewal that failed without proving
	// the lock lost (a network error, a timeout); the watchdog retries while
	// the lease lasts.
	RenewFailed(key string, err error)

	// LockLost reports a lock that KeepAlive found lost: not held by its
	// owner any more, or its lease ran out before a renewal succeeded.
	LockLost(key string, cause error)

	// ScriptReloaded reports a server that answered NOSCRIPT for a script,
	// which was then sent in full.
	ScriptReloaded(script string)
}

// NopHooks implements Hooks with methods that do nothing.
type NopHooks struct{}

func (NopHooks) ObtainDone(string, int, time.Duration, error) {}
func (NopHooks) Contended(string, time.Duration)              {}
func (NopHooks) RenewFailed(string, error)                    {}
func (NopHooks) LockLost(string, error)                       {}
func (NopHooks) ScriptReloaded(string)                        {}
