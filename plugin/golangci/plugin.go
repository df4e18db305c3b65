// Package golangci registers slotlint as a golangci-lint v2 module plugin
// named "slotlint". It is a thin face over the same analyzers and the same
// settings as the slotlint command: the plugin's settings decode into
// config.Settings, the struct behind the -slotlint.* flags.
//
// .custom-gcl.yml:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/slotlint/slotlint
//	    import: github.com/slotlint/slotlint/plugin/golangci
//	    version: latest
//
// .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable: [slotlint]
//	  settings:
//	    custom:
//	      slotlint:
//	        type: module
//	        settings:
//	          disable: [SL1104]
//	          braces: false
//	          strict: false
package golangci

import (
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/internal/version"
)

func init() {
	register.Plugin("slotlint", New)
}

// Plugin is slotlint as golangci-lint sees it.
type Plugin struct {
	settings config.Settings
}

// New decodes and validates the "settings" block of the linter's
// configuration; unknown keys and unknown rule IDs are errors, so a typo
// does not silently turn a rule on or off. The errors name the slotlint
// version compiled into golangci-lint: the module-plugin API gives a
// plugin no other place to show it, and a rule ID that version does not
// know is the usual sign of a binary older than its configuration.
func New(raw any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[config.Settings](raw)
	if err != nil {
		return nil, versioned(err)
	}
	s.Enable = upper(s.Enable)
	s.Disable = upper(s.Disable)
	if _, err := config.New(s); err != nil {
		return nil, versioned(err)
	}
	return &Plugin{settings: s}, nil
}

// versioned prefixes err with the slotlint version golangci-lint was built
// with, as `version --debug` lists it.
func versioned(err error) error {
	return &settingsError{version: version.Read().String(), err: err}
}

// settingsError reads "slotlint VERSION: what is wrong", the settings'
// own "slotlint: " prefix dropped so the name is not said twice.
type settingsError struct {
	version string
	err     error
}

func (e *settingsError) Error() string {
	return "slotlint " + e.version + ": " + strings.TrimPrefix(e.err.Error(), "slotlint: ")
}

func (e *settingsError) Unwrap() error { return e.err }

// BuildAnalyzers hands golangci-lint the slotlint suite. The settings
// analyzer reads config.Current when it runs, as it does for the CLI flags.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	config.Current = p.settings
	return analyzer.Analyzers(), nil
}

// GetLoadMode asks for type information: every rule resolves go-redis
// calls and key expressions through types.
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

func upper(ids []string) []string {
	var out []string
	for _, id := range ids {
		if id = strings.TrimSpace(id); id != "" {
			out = append(out, strings.ToUpper(id))
		}
	}
	return out
}
