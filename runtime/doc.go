// Package runtime holds vetted, Redis Cluster–safe Lua scripts for locks and
// counters, with a go-redis v9 API. Each operation is one atomic script,
// embedded from the package's lua/ directory where it can be read; every key
// a script touches arrives in KEYS, and the keys of one operation share a
// hash tag, so the same code runs on a single server, on a cluster and on
// managed endpoints that enforce slots. Operations check that their keys
// share a slot before any round trip and fail with ErrCrossSlot otherwise.
//
// The package imports go-redis, the project's slot package and the standard
// library only. It targets Redis 7.0 and later.
//
// # Keys
//
// Key builds keys whose hash tag is the entity id, so one entity's keys are
// co-located while different entities spread over the cluster:
//
//	runtime.Key("order", id, "lock")  // order:{42}:lock
//	runtime.Key("order", id, "state") // order:{42}:state
//
// # Locks
//
// Client.Obtain takes a lock with a TTL and waits (bounded by its context)
// while another owner holds it: one script call per attempt, which returns
// the holder's remaining TTL so the retry delay (exponential, full jitter) is
// never longer than needed; goroutines of one Client take turns so only one
// of them polls Redis per key. Waiters of other processes queue in the lock
// and block on a short-lived co-slotted list (BLPOP): a release that finds
// them queued does not free the lock but reserves it, for a short hand-off
// window, for the ticket it pushes to that list, which Redis gives to the
// longest-blocked waiter; newcomers, the releaser included, queue behind it
// and keep their place while it claims. A waiter that died with the ticket
// holds the lock up for the window when nobody else is queued, and for the
// others' wait bound (at most 16 × MaxBackoff) when they are. Concurrent
// lock calls of one Client share round trips (pipelines). A lock is a
// hash with the owner's random token, a reentry count and a fencing token; the same token re-enters, Release
// leaves once and deletes the lock at the last entry, and Refresh and Release
// check the token. Lock.KeepAlive renews in the background and returns a
// context that ends the moment the lock is lost or its lease runs out, so
// work under that context never outlives the lock. The fencing token grows
// with every acquisition, across expiries, from a counter that is the only
// key a lock leaves behind; stores that remember the highest token they have
// seen can refuse late writes of a holder that lost its lock. Like every
// lease, a lock only excludes work that ends by Lock.Deadline: a process that
// stalls longer than its TTL (a long GC pause, a suspended VM) can still run
// after a new owner started, which only fencing tokens catch.
//
// Client.LockAndSet takes the lock and writes one field of a co-slotted state
// hash in one script; Lock.SetState writes it later only while the lock is
// held and the fencing token is not stale.
//
// # Monotonic values and write-back
//
// Client.MaxUpdate raises a value to max(current, new) and marks it in a
// dirty set only when it rose; MaxTable shards a family of such values and
// their dirty sets by hash tag, and Client.Drain pops dirty ids in batches
// (SPOP with a count) for writing back. Concurrent updates through one
// Client share round trips: those that arrive while one is in flight go out
// together in the next pipeline, where the updates of one value are sent as
// the highest of them (the others report no rise, as if run right after it).
// Writes back may repeat or arrive
// late, so the database update must only ever raise the stored value:
//
//	UPDATE items SET last_read = $1 WHERE id = $2 AND last_read < $1
//
// With that condition, concurrent drains, retries after a failed batch and a
// value read after a newer update all leave the row at the true maximum.
//
// # Counters
//
// Client.DecrementIfAvailable takes stock without ever going below zero and
// tells a missing or non-numeric counter apart from an empty one.
// Client.IssueOnce hands out at most one item of a capped pool per user.
//
// # Scripts
//
// Scripts are called by EVALSHA; a server that answers NOSCRIPT (after a
// restart, a failover or SCRIPT FLUSH) gets the script once more by EVAL, on
// whichever shard serves the keys. Client.RunPipelined does the same inside
// pipelines, where go-redis's Script.Run cannot, and Client.Preload loads
// every script on every master ahead of time.
//
// # Errors and observability
//
// Errors wrap the package's sentinel errors (ErrNotObtained, ErrLockLost,
// ErrWrongType, ErrCrossSlot, ErrInvalidArgument, …) for errors.Is. Scripts
// check the TYPE of every key before writing, so a key that holds other data
// is reported with ErrWrongType and left untouched. Options.Hooks receives
// acquire latency and attempts, contention, renewal failures, lost locks and
// NOSCRIPT reloads, for any metrics library.
package runtime
