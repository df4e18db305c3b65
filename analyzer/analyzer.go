// Package analyzer is slotlint's suite of go/analysis analyzers for Go code
// that talks to Redis through go-redis v9. Each rule family lives in its own
// package (crossslot, txslot, scriptkeys, hashtag); they share the settings
// of package config, the rule catalogue of package rules and the reporting
// helper of package report.
package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/hashtag"
	"github.com/slotlint/slotlint/analyzer/scriptkeys"
	"github.com/slotlint/slotlint/analyzer/txslot"
)

// Analyzers returns the suite: the settings analyzer (it carries the flags)
// and every rule analyzer.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		config.Analyzer,
		crossslot.Analyzer,
		txslot.Analyzer,
		scriptkeys.Analyzer,
		hashtag.Analyzer,
	}
}
