// Package scriptkeys defines an Analyzer that checks the keys passed to Lua
// scripts and functions.
//
// # Analyzer scriptkeys
//
// scriptkeys: report script calls whose keys are not in one slot, or that
// pass no keys
//
// EVAL, EVALSHA, their read-only forms, (*redis.Script).Run and friends,
// FCALL and FCALL_RO, called through go-redis methods or Do:
//
//   - SL1004 when the KEYS passed are not proven to share a slot (Redis
//     Cluster answers CROSSSLOT);
//   - SL1203 when no key is passed: a cluster client then sends the script
//     to an arbitrary master, where the keys it touches may not live. A
//     script whose text is known and that touches no key (return ARGV[1],
//     a pure computation, a function that only returns) runs the same on
//     any master and is not reported; one whose text is not known is.
//
// Suppress one finding with //slotlint:ignore SL1004 reason.
package scriptkeys
