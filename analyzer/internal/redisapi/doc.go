// Package redisapi finds Redis calls in a package and describes each as
// "command + keys". One front end per client library maps that client's
// call shapes to these records (frontends.go lists them); the rules read
// only the records, so every client gets the same rules and messages.
//
// # Analyzer slotlintcalls
//
// slotlintcalls: collects Redis commands sent through the supported clients,
// with their keys, for slotlint's rules
//
// Its Result holds the package's calls, transactions and script calls as
// records; the rule analyzers require it and read nothing else about the
// clients. It reports nothing.
package redisapi
