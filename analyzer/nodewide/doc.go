// Package nodewide defines an Analyzer that reports commands acting on a
// whole keyspace sent through a cluster client.
//
// # Analyzer nodewide
//
// nodewide: report KEYS, SCAN, FLUSHDB, FLUSHALL, FUNCTION LOAD, DELETE and FLUSH and CONFIG SET sent through a cluster client
//
// These commands have no key: each acts on the keyspace, the function
// libraries or the configuration of the one server that runs it.
// go-redis's ClusterClient sends a command with no key to one master it
// picks and answers with that master's reply, so on a cluster KEYS and a
// SCAN loop see the keys of one master, FLUSHDB and FLUSHALL empty one
// master, FUNCTION LOAD loads a library that FCALL then misses on the
// other masters, FUNCTION DELETE and FLUSH leave the others serving the
// old functions, and CONFIG SET (notify-keyspace-events, say) changes
// one master's configuration. The
// analyzer reports SL1006 for these calls on a ClusterClient, and on a
// value a ClusterClient may be behind: a UniversalClient (a cluster
// client when the application is given several addresses; one built in
// place with options that make a plain or failover client is not
// reported), go-redis's Cmdable, or an interface of the application's
// code that embeds go-redis's interfaces (go-zero's RedisNode). In test
// files only a ClusterClient is reported: there such a value is, as
// tests are set up, the client of one test server that the test lists
// or empties between cases. A ClusterClient visibly configured with
// SetCommandInfoResolver(NewDynamicResolver()) sends FLUSHDB and FLUSHALL
// to every master, and those are then not reported; the others still
// are (the tests run each on a 3-master cluster with go-redis v9.23.0). DBSIZE and SCRIPT LOAD, which the cluster client
// sends to every master, are not reported; nor is anything sent on a
// master's own client inside ForEachMaster.
//
// go-redis's Ring, which shards keys over several servers in the client,
// sends a command with no key to one shard it picks, with the same
// effects on that shard (TestRingReachesOneShard, on three servers of its
// own): these calls on a Ring are reported too, with ForEachShard as the
// way to reach every shard, and so is DBSIZE, which a Ring answers with
// one shard's count. A Ring built in place with one address routes like a
// plain client and is not reported; in test files only a Ring built in
// place with several addresses is.
//
// Suppress one finding with //slotlint:ignore SL1006 reason.
package nodewide
