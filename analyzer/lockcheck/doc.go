// Package lockcheck defines an Analyzer that reports hand-rolled Redis
// locks and read-modify-write code with known races, and points at the
// runtime package's vetted replacements.
//
// # Analyzer lockcheck
//
// lockcheck: report hand-rolled Redis locks and read-modify-write code with known races
//
// The analyzer follows, per function and along its control-flow graph
// (early returns, loops), the Redis calls on each key, including the
// calls made by helper functions of the package, whose keys are bound to
// the arguments of each call. Calls of every supported client count the
// same (go-redis methods and Do, redigo's Do and Send, rueidis and
// valkey-go command builders), and each message gives its advice in the
// terms of the client the call is made with. It reports:
//
//   - SL1301 (ttl.go): SETNX, or SET NX without expiry, then EXPIRE or
//     PEXPIRE of the same key on some later path. A process that dies in
//     between leaves a lock that never expires. When both calls are in
//     one function and the EXPIRE is a statement of its own, a suggested
//     fix moves its duration into SetNX (or the TTL field of a one-line
//     SetArgs literal) and deletes it.
//   - SL1302 (release.go): a lock key (a key of a family the package sets
//     with NX and lets expire, by a TTL in the SET or an EXPIRE) deleted
//     by DEL or UNLINK outside a WATCH transaction or a script: either with no owner check, or after a GET whose value
//     decides the DEL (GET, compare, DEL), which races with expiry and
//     takeover. Release with runtime's Lock.Release or a token-checked
//     script.
//   - SL1303 (retry.go): a loop around a lock acquisition that ends once
//     the lock is taken and waits a duration the loop never changes
//     (time.Sleep, time.After, time.Tick, a ticker). The acquisition may
//     be a helper that returns only an error, nil once the lock is taken:
//     the loop then ends on err == nil, or runs while err != nil. A
//     periodic job that takes the lock each round and keeps looping is
//     paced on purpose and not reported. Back off exponentially with
//     jitter, as runtime's Client.Obtain does.
//   - SL1304 (lostupdate.go): GET then SET of the same key, or HGET then
//     HSET of the same field, where the written value or the decision to
//     write depends on what was read, outside WATCH and scripts and not
//     after a lock taken in the same function (SET NX, or a lock
//     library's Obtain, Lock, TryLock): another client's update between
//     the two is lost. Filling a missing value (the read only compared
//     with its zero value, or only its error checked) is not reported:
//     whoever wins writes the same thing. Nor is a loop whose write
//     follows the read only in a later iteration, when the write's key is
//     built anew each iteration or its value does not come from the read
//     (write, read back, check, go on). Use INCRBY/HINCRBY,
//     runtime's Client.MaxUpdate, a script, or WATCH with TxPipelined.
//   - SL1305 (counter.go): INCR, INCRBY, DECR, HINCRBY and the other
//     increments, then EXPIRE or PEXPIRE of the same key for one count of
//     the increment's reply only (if n == 1, the key is new; if n ==
//     limit), outside a MULTI/EXEC that holds both. A process that dies,
//     or an EXPIRE that fails, in between leaves a counter that never
//     expires and keeps counting: no later increment gives that count
//     again, so none sets the TTL, and a fixed-window limiter refuses
//     that caller for good. An EXPIRE after every increment, or after
//     every one under a limit, is not reported (the next such call sets a
//     lost TTL again), nor one that a TTL or PTTL read of the key also
//     decides, nor a counter whose key is built from time.Now (a key per
//     window: a lost TTL leaves one past window's key behind).
//     Send both in one TxPipelined with ExpireNX (EXPIRE NX keeps the
//     window fixed), or use a script.
//
// Suppress one finding with //slotlint:ignore SL1304 reason.
package lockcheck
