// Package keyexpr turns Go expressions into slotlint's symbolic keys
// (slot.Key): constants, concatenation, fmt.Sprintf/Sprint with constant
// formats, strconv conversions, strings.Join, local variables followed
// through simple straight-line flow, slices built from literals and append,
// struct fields, and key-builder functions, inlined in the same package and
// carried across packages as analysis facts.
//
// A hole's ID names the value it stands for, so the same value compares
// equal and different values differ: a parameter or a variable assigned once
// is one value; a variable whose flow is not followed, or the result of an
// unknown call, gets an ID unique to the place it is read.
//
// # Analyzer slotlintkeys
//
// slotlintkeys: records the keys that string-returning functions build, for
// slotlint's rules
//
// It runs on every package, since key builders may live where no client is
// imported, exports a summary of each builder as a fact for importing
// packages, and hands the rule analyzers an Extractor. It reports nothing.
package keyexpr
