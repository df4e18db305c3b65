// Package directives reads, once per package, what its comments say to
// slotlint: "//slotlint:ignore ID[,ID] reason" suppressions and the
// generated-file marks (ast.IsGenerated). Every rule analyzer requires
// Analyzer and reads its Result through package report, instead of each
// scanning every comment again.
//
// # Analyzer slotlintdirectives
//
// slotlintdirectives: reads the suppressions and generated-file marks of a
// package, for slotlint's rules
//
// The comments are read on the first question, so a package that no rule
// reports on costs nothing. It reports nothing: a directive without a
// reason is reported by the rule analyzer it names.
package directives
