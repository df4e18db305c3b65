// Package txslot defines an Analyzer that reports transactions whose keys
// do not share a hash slot.
//
// # Analyzer txslot
//
// txslot: report MULTI/EXEC and WATCH across keys of several slots
//
// In Redis Cluster every key of every command queued between MULTI and EXEC,
// and every watched key, must be in one slot: otherwise the queued command
// gets CROSSSLOT and EXEC answers EXECABORT, and go-redis's cluster Watch
// refuses keys of several slots. The analyzer collects the commands queued
// in TxPipelined, TxPipeline()...Exec and Watch(fn, keys...) (including
// commands repeated in a loop, which touch a different key per iteration)
// and reports SL1003 when they are not proven to share a slot. A helper
// function handed the transaction's pipeliner (or, with redigo, the
// connection inside MULTI) queues its commands in the transaction: each
// function that sends commands on a parameter is summarised, with its keys
// in terms of its parameters, and the summary travels to importing
// packages as a fact, so the helper's keys are checked at the call. Plain
// Pipelined and Pipeline are split per node by cluster clients and are not
// reported.
//
// Commands that no run of the code queues together are not related:
// those in the two branches of an if, in two cases of a switch (without
// fallthrough) or of a select, and a command in a block that ends in a
// return or a panic against one after that block. Inside a loop of the
// transaction's body every branch may run, one per pass, so there all
// commands are related, as they are when a break, continue or goto could
// skip the return.
//
// go-redis's cluster client does not send a transaction across slots:
// from v9.11 TxPipeline and TxPipelined fail with redis.ErrCrossSlot
// before anything is sent (the groundtruth tests check this on a real
// cluster with v9.23.0); before v9.11 they split it into one MULTI/EXEC
// per slot without a word, so each part ran and the whole was not atomic.
//
// Suppress one finding with //slotlint:ignore SL1003 reason.
package txslot
