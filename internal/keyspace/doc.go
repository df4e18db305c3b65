// Package keyspace samples the keys of a live Redis server or cluster and
// matches them to the key families found in the code: the live half of
// slotlint's key-design map.
//
// The sampler only sends read-only commands: INFO, DBSIZE, CLUSTER SHARDS
// (or CLUSTER NODES), READONLY on replicas, SCAN, TYPE, PTTL and MEMORY
// USAGE. It never sends KEYS and never writes. It is bounded three ways: a
// key budget (no more than that many keys are taken into the sample and
// looked at, across all nodes), a time budget (the run's context), and the
// COUNT of each SCAN call. The budget is spread over the masters in
// proportion to their DBSIZE, so that each master's sample is the same
// fraction of its keys and the estimates need no reweighting.
//
// Estimates scale each master's sample by DBSIZE over the keys sampled on
// it. SCAN walks a server's hash table in bucket order, which is the order
// of the keys' hashes, so a scan stopped early has seen a pseudo-random
// subset of the keys. Redis 7.4 and later (and Valkey 8) keep one table per
// slot on a cluster node and scan slot by slot: there a scan stopped early
// has seen the lowest slots only, and the report says so.
package keyspace
