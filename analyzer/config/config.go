// Package config owns every slotlint setting. Its analyzer carries the flags
// (so a multichecker shows them as -slotlint.NAME and go vet passes them
// through), and its Result is what each rule analyzer reads: there is one
// settings surface for the CLI, go vet and editor or lint-runner plugins.
package config

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/slot"
)

// Settings are slotlint's options. The zero value is the default.
type Settings struct {
	// Disable lists rule IDs that are not reported.
	Disable []string
	// Enable, when not empty, lists the only rule IDs that are reported.
	Enable []string
	// Braces treats values of unknown text (holes) as possibly holding '{'
	// or '}', so no tag is assumed where a hole could move it.
	Braces bool
	// Strict also reports multi-key commands whose keys cannot be resolved
	// (SL1005).
	Strict bool
}

// Config is the validated form of Settings that rule analyzers consult.
type Config struct {
	enabled map[string]bool
	Strict  bool
	Slot    slot.Options
}

// Enabled reports whether the rule with the given ID is reported.
func (c *Config) Enabled(id string) bool {
	if id == "SL1005" && !c.Strict {
		return false
	}
	return c.enabled[id]
}

// New validates s.
func New(s Settings) (*Config, error) {
	c := &Config{enabled: map[string]bool{}, Strict: s.Strict, Slot: slot.Options{HolesMayContainBraces: s.Braces}}
	check := func(flag string, ids []string) error {
		for _, id := range ids {
			if _, ok := rules.Lookup(id); !ok {
				return fmt.Errorf("slotlint: -%s names unknown rule %q (known: %s)", flag, id, known())
			}
		}
		return nil
	}
	if err := check("enable", s.Enable); err != nil {
		return nil, err
	}
	if err := check("disable", s.Disable); err != nil {
		return nil, err
	}
	for _, r := range rules.All() {
		c.enabled[r.ID] = len(s.Enable) == 0
	}
	for _, id := range s.Enable {
		c.enabled[id] = true
	}
	for _, id := range s.Disable {
		c.enabled[id] = false
	}
	return c, nil
}

func known() string {
	var ids []string
	for _, r := range rules.All() {
		ids = append(ids, r.ID)
	}
	sort.Strings(ids)
	return strings.Join(ids, ",")
}

// Current holds the settings the flags write into; plugins set it directly
// before analysis starts.
var Current Settings

// idList is a flag.Value of comma-separated rule IDs.
type idList struct{ ids *[]string }

func (l idList) String() string {
	if l.ids == nil {
		return ""
	}
	return strings.Join(*l.ids, ",")
}

func (l idList) Set(s string) error {
	*l.ids = nil
	for _, id := range strings.Split(s, ",") {
		if id = strings.TrimSpace(id); id != "" {
			*l.ids = append(*l.ids, strings.ToUpper(id))
		}
	}
	return nil
}

// Analyzer exposes the settings as flags and hands the validated Config to
// the rule analyzers as its Result. It reports nothing itself.
var Analyzer = &analysis.Analyzer{
	Name:       "slotlint",
	Doc:        "settings shared by every slotlint rule (reports nothing itself)",
	Run:        run,
	ResultType: reflect.TypeOf((*Config)(nil)),
}

func init() {
	Analyzer.Flags.Var(idList{&Current.Disable}, "disable", "comma-separated rule IDs not to report, e.g. SL1104,SL1005")
	Analyzer.Flags.Var(idList{&Current.Enable}, "enable", "comma-separated rule IDs to report exclusively")
	Analyzer.Flags.BoolVar(&Current.Braces, "braces", false, "assume values of unknown text may contain '{' or '}'")
	Analyzer.Flags.BoolVar(&Current.Strict, "strict", false, "also report multi-key commands whose keys cannot be resolved (SL1005)")
}

func run(*analysis.Pass) (any, error) { return New(Current) }
