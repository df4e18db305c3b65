// Package config owns every slotlint setting. Its analyzer carries the flags
// (so a multichecker shows them as -slotlint.NAME and go vet passes them
// through), and its Result is what each rule analyzer reads: there is one
// settings surface for the CLI, go vet and editor or lint-runner plugins.
//
// # Analyzer slotlint
//
// slotlint: settings shared by every slotlint rule (reports nothing itself)
//
// Its flags are slotlint's settings: -slotlint.disable and
// -slotlint.enable (comma-separated rule IDs), -slotlint.strict and
// -slotlint.braces. Every rule analyzer requires it and reads its Result.
package config
