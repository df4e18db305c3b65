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
// # Clients
//
// New takes a *redis.Client, *redis.ClusterClient or *redis.Ring; one
// Client per process, shared by its goroutines. Any redis.Scripter works
// for the single-script operations; the Client also uses, when the value
// has them, Pipeline (to share round trips between concurrent calls, and
// for RunPipelined and UpdateMany, which need it), Do (for BLPOP, through
// which a waiting Obtain blocks on the lock's wake-up list instead of
// polling) and redis.Cmdable (for Drain). A nil client makes a Client whose
// every operation fails with ErrInvalidArgument. With ContextTimeoutEnabled
// set on the go-redis client, lone calls under a context with a deadline
// cost less (see Contexts).
//
// # Locks
//
// Client.Obtain takes a lock with a TTL and waits (bounded by its context)
// while another owner holds it: one script call per attempt, which returns
// the holder's remaining TTL so that no wait is longer than needed;
// goroutines of one Client take turns so only one of them, the poller,
// waits through Redis per key.
//
// Pollers wait in a queue kept in Redis, first come first served: the
// first attempt that finds the lock held, or free with others queued,
// gives the caller a place at the end of the lock's wake-up queue (a
// sorted set at WakeKey, next to the lock), and the caller blocks (BLPOP)
// on a short-lived wake-up list of its own. A release that finds callers
// queued does not free the lock but reserves it, for a short hand-off
// window (Options.HandoffWindow), for the first of them still waiting, and
// wakes that one; newcomers, the releaser included, queue behind. So
// waiters get the lock in the order of their first attempts, and keep
// their place for as long as they wait, however long the lock is held or
// renewed (Refresh, KeepAlive): a waiter asks again at least every
// 16 × MaxBackoff, whether woken or not, and each attempt renews its place
// without moving it. The order lives in Redis, not in Redis's queue of
// clients blocked on one list, which a waiter whose BLPOP timed out would
// rejoin at the end.
//
// A waiter whose context ends leaves the queue. One that dies (a killed
// process, a lost connection) keeps its place for 2 × 16 × MaxBackoff + 1s
// after its last attempt; a release that reaches it before then reserves
// the lock for it, the reservation lapses after the hand-off window, and
// the next caller takes the lock when it asks again: a dead waiter holds
// the others up for at most HandoffWindow + 16 × MaxBackoff (the
// MaxBackoff of the Client behind it). The same happens to a live waiter
// that does not claim within the window (it was not woken, say because the
// releaser's process died between its release and the wake-up): it loses
// its place and queues again at the end. A holder that dies leaves the
// lock to the first waiter when its lease runs out. Concurrent lock calls
// of one Client share round trips (pipelines, one queue per shard).
// ObtainOptions.NoWait makes a single attempt, and never queues.
//
// A lock is a hash with the owner's random token, a reentry count and a
// fencing token; the same token re-enters (ObtainOptions.Token), Release
// leaves once and deletes the lock at the last entry, and Refresh and
// Release check the token. Lock.KeepAlive renews in the background and
// returns a context that ends the moment the lock is lost or its lease runs
// out, so work under that context never outlives the lock.
//
// # Leases and Deadline
//
// A lock has one lease, however many entries its owner holds. A re-entry
// or Refresh with a longer TTL extends it; one with a shorter TTL leaves it
// as it is (PEXPIRE GT), so no entry is ever promised less than it was:
// after Obtain(k, 10s), a re-entry with 100ms and its Release, the lock
// still lasts the 10s. Lock.Deadline reports the lease Redis replied with,
// measured from before the request, less 1% and 1ms for clock drift; the
// entries of one owner taken through one Client share it, so every entry's
// Deadline moves when any of them extends the lease. Like every lease, a
// lock only excludes work that ends by its Deadline: a process that stalls
// longer (a long GC pause, a suspended VM) can still run after a new owner
// started, which only fencing tokens catch.
//
// # Fencing tokens
//
// Lock.Fence grows with every acquisition of the lock, across releases,
// expiries and hand-offs; stores that remember the highest token they have
// seen can refuse late writes of a holder that lost its lock. Tokens come
// from one counter per hash slot (FencingKey), shared by the slot's locks and
// never expired, so a lock leaves no key behind and the counters number at
// most 16384 whatever the number of locks. Tokens stay monotonic for as long
// as Redis keeps its data; losing the counter (FLUSHALL, a restart without
// persistence, a failover that loses writes, eviction under an allkeys-*
// policy) restarts them, and a store that remembers a higher token then
// refuses writes until the counter passes it: it fails safe.
//
// Client.LockAndSet takes the lock and writes one field of a co-slotted state
// hash in one script; Lock.SetState writes it later only while the lock is
// held and the fencing token is not stale.
//
// # Monotonic values and write-back
//
// Client.MaxUpdate raises a value to max(current, new) and marks it in a
// dirty set only when it rose. A MaxTable shards a family of such values and
// their dirty sets by hash tag: Client.Update raises one id's value,
// Client.UpdateMany many in one pipeline, and Client.Drain pops dirty ids in
// batches (SPOP with a count) for writing back. MaxTable.Shard tells which
// shard an id lives in, so ValueKey(id) and DirtyKey(shard) can be passed to
// MaxUpdate or RunPipelined directly. Concurrent updates through one Client
// share round trips: those that arrive while one is in flight go out
// together in the next pipeline, where the updates of one value are sent as
// the highest of them (the others report no rise, as if run right after it).
// Writes back may repeat or arrive late, so the database update must only
// ever raise the stored value:
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
// Client.IncrWindow counts in a fixed window: the increment that creates
// the counter sets its TTL in the same step, so no crash between an INCR
// and an EXPIRE leaves a counter that never expires (slotlint's SL1305).
//
// # Contexts
//
// Every call returns when its context ends. A waiting Obtain returns
// ErrNotObtained wrapping the context's error. A call queued to share a
// round trip is taken out of the queue and never sent; a call already in
// flight returns at once while its pipeline finishes on its own, so its
// script may still run: an Obtain that took the lock after its caller left
// releases it again, and a MaxUpdate may have raised its value. Both
// errors wrap the context's error (errors.Is(err, context.DeadlineExceeded)).
//
// For that, calls in flight run on a sender goroutine per shard, which the
// caller waits for. A lone call skips that hop, and its two goroutine
// wake-ups, when it cannot outlive its context: the context never ends
// (context.Background), or the go-redis client applies context deadlines
// to its socket (Options.ContextTimeoutEnabled) and the context has a
// deadline. Such a call returns by its deadline with an error wrapping
// context.DeadlineExceeded; a cancellation before the deadline is noticed
// when the server answers or the deadline passes, not at once. An Obtain's
// attempts under a context that can end always go through the sender,
// which keeps waiting for the reply after the caller left.
//
// # Scripts and RunPipelined
//
// Scripts are called by EVALSHA; a server that answers NOSCRIPT (after a
// restart, a failover or SCRIPT FLUSH) gets the script once more by EVAL, on
// whichever shard serves the keys. Client.RunPipelined does the same inside
// pipelines, where go-redis's Script.Run cannot, and Client.Preload loads
// every script on every master ahead of time. Scripts lists them; each
// script's source (Script.Source) starts with its KEYS, ARGV and reply.
// RunPipelined checks every call against that before any round trip and
// fails with ErrInvalidArgument naming the call, rather than let a script
// stop with a Lua error. Times are milliseconds as integers (not
// time.Duration, which go-redis sends as nanoseconds); k is a lock key
// built with Key:
//
//	obtain        KEYS k, FencingKey(k),        ARGV token, ttl, "-", hold,
//	                   WakeKey(k)                    window
//	release       KEYS k, FencingKey(k),        ARGV token, window
//	                   WakeKey(k)
//	refresh       KEYS k                        ARGV token, ttl
//	lock_and_set  KEYS k, FencingKey(k), state, ARGV token, ttl, field,
//	                   WakeKey(k)                    value, stateTTL, "-",
//	                                                 hold, window
//	set_state     KEYS k, state                 ARGV token, fence, field,
//	                                                 value, stateTTL
//	max_update    KEYS value, dirty set         ARGV integer, member
//	decrement     KEYS counter                  ARGV n (1..10^15-1)
//	issue_once    KEYS issued set               ARGV user, capacity
//	count_window  KEYS counter                  ARGV n (1..10^15-1), window
//
// In obtain and lock_and_set, "-" says the caller does not queue for the
// lock (hold, how long a queued caller keeps its place, then goes unused);
// window is the hand-off window, which an attempt that finds a lapsed
// reservation uses to reserve the lock for the next caller queued. A
// release or attempt that reserves the lock for a queued caller replies
// with its place, and the caller of the script wakes it: RPUSH to
// WakeKey(k)+":"+place, with the window as its expiry (PEXPIRE). The
// replies are those of the source comments; a pipelined obtain is not
// tracked by a Client, so release it with a pipelined release.
//
// # Errors and observability
//
// Errors wrap the package's sentinel errors (ErrNotObtained, ErrLockLost,
// ErrWrongType, ErrCrossSlot, ErrInvalidArgument, …) for errors.Is. Scripts
// check the TYPE of every key before writing, so a key that holds other data
// is reported with ErrWrongType and left untouched. Errors of Redis itself
// reach the caller as go-redis returns them, wrapped: the scripts that write
// carry a #!lua shebang, so under maxmemory Redis refuses them up front
// (redis.IsOOMError) rather than fail them half-way, while release and
// refresh carry allow-oom and still run, as DEL and PEXPIRE do.
// Options.Hooks receives acquire latency and attempts, contention, renewal
// failures, lost locks and NOSCRIPT reloads, for any metrics library.
package runtime
