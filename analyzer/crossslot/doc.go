// Package crossslot defines an Analyzer that reports multi-key Redis
// commands whose keys do not share a hash slot.
//
// # Analyzer crossslot
//
// crossslot: report multi-key commands whose keys are not in one slot
//
// Redis Cluster serves a command only when all its keys hash to one slot;
// otherwise it answers "CROSSSLOT Keys in request don't hash to the same
// slot". Managed endpoints that enforce slots do the same behind a plain
// client. The analyzer follows how each key of MGET, DEL, SINTERSTORE,
// RENAME, MSET, Do("...") and the other multi-key go-redis v9 methods is
// built and reports:
//
//   - SL1001 when the keys' slots are computable and differ;
//   - SL1002 when nothing proves they share a slot: no common hash tag.
//     When every key is built in place from one shared value, a suggested
//     fix wraps that value in {} in each concatenation or format string;
//   - SL1005 (only with -slotlint.strict) when the keys cannot be resolved.
//
// Keys a helper is given whole (func move(rdb, src, dst string) {
// rdb.Rename(ctx, src, dst) }) are judged at every call of the helper with
// what that call passes, when every call is in sight (an unexported
// function, only ever called): a call whose keys may be in different
// slots is reported at the command, under SL1001 or SL1002, naming the
// call ("called at jobs.go:40 with src = ..."), and keys every caller
// passes with one slot are resolved. A call that passes keys it was
// given whole in turn leaves them unresolved (SL1005).
//
// slotlint's runtime is read the same way: Client.MaxUpdate's value and
// dirty set and Client.LockAndSet's lock and state keys must share a slot,
// and the lock key of Client.Obtain and LockAndSet needs a hash tag of its
// own, since the runtime keeps the lock's wake-up list at key + ":wake";
// without one the runtime fails with ErrCrossSlot, reported as SL1001 (a
// constant key) or SL1002, with a suggested fix that builds the key with
// runtime.Key when it is written in place.
//
// A go-redis cluster client visibly configured to follow the server's
// request policies, c.SetCommandInfoResolver(c.NewDynamicResolver())
// (go-redis v9.18 and later; on the variable or field the call goes
// through), sends MGET, EXISTS, TOUCH, DEL, UNLINK, MSET and MSETNX once
// per slot of their keys. There is then no CROSSSLOT: such reads are not
// reported, and such writes are reported under SL1001 or SL1002 as writes
// that are no longer atomic.
//
// Suppress one finding with //slotlint:ignore SL1002 reason.
package crossslot
