// Package keymap builds the key-design map of Go code: the key families it
// uses and the places that use several keys together, for slotlint keys
// (docs/keys.md).
//
// # Analyzer slotlintkeymap
//
// slotlintkeymap: collects the key families a package uses and its joint
// uses of keys, for slotlint keys
//
// A key family is a key shape with holes, such as "order:{" + id + "}:lock",
// named by its literal text with each hole written '*' ("order:{*}:lock").
// The analyzer reads the records of internal/redisapi, the ones the rules
// read: for each family, the commands sent on it and where, and its hash
// tag (an entity tag holding a hole, a constant tag, no tag). A key that is
// only a value built elsewhere (a parameter passed in whole) names no
// family. A joint use is a multi-key command, a MULTI/EXEC or WATCH
// transaction, a script call, or a key and the key a library derives from
// it: its verdict comes from slotcheck.Relate on the keys crossslot,
// txslot and scriptkeys relate, so it is the rules' own judgement, and
// FromGraph adds the IDs of the rules that report each use. It reports
// nothing.
package keymap
