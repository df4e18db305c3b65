package config

import (
	_ "embed"
	"flag"
	"fmt"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/luacheck"
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

// luaUmbrella is the Go rule under which the Lua checker's findings in
// scripts held in Go code are reported, each under its own LUA ID.
const luaUmbrella = rules.LuaInGo

func isLua(id string) bool { return strings.HasPrefix(id, "LUA") }

// Enabled reports whether the rule with the given ID is reported. A LUA
// rule found in a script held in Go code is reported when both it and
// SL1202 are.
func (c *Config) Enabled(id string) bool {
	if id == rules.UnresolvedKeys && !c.Strict {
		return false
	}
	if isLua(id) && !c.enabled[luaUmbrella] {
		return false
	}
	return c.enabled[id]
}

// RuleError is a setting that names a rule that does not exist.
type RuleError struct {
	Setting string // "enable" or "disable"
	ID      string
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("slotlint: %s names unknown rule %q (rules: %s)", e.Setting, e.ID, known())
}

// New validates s. Enable and Disable take Go rule IDs and the LUA IDs
// that Go mode reports inside scripts held in Go code; enabling a LUA
// rule enables SL1202, which carries it.
func New(s Settings) (*Config, error) {
	c := &Config{enabled: map[string]bool{}, Strict: s.Strict, Slot: slot.Options{HolesMayContainBraces: s.Braces}}
	check := func(setting string, ids []string) error {
		for _, id := range ids {
			if !isRule(id) {
				return &RuleError{Setting: setting, ID: id}
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
	for _, id := range allIDs() {
		c.enabled[id] = len(s.Enable) == 0
	}
	for _, id := range s.Enable {
		c.enabled[id] = true
		if isLua(id) {
			c.enabled[luaUmbrella] = true
		}
		if id == luaUmbrella {
			for _, r := range luacheck.Rules {
				c.enabled[r.ID] = true
			}
		}
	}
	for _, id := range s.Disable {
		c.enabled[id] = false
	}
	return c, nil
}

func isRule(id string) bool {
	if _, ok := rules.Lookup(id); ok {
		return true
	}
	for _, r := range luacheck.Rules {
		if r.ID == id {
			return true
		}
	}
	return false
}

// allIDs are the Go rules, then the Lua rules.
func allIDs() []string {
	var ids []string
	for _, r := range rules.All() {
		ids = append(ids, r.ID)
	}
	for _, r := range luacheck.Rules {
		ids = append(ids, r.ID)
	}
	return ids
}

func known() string {
	return strings.Join(allIDs(), ",")
}

// Current holds the settings the flags write into; plugins set it directly
// before analysis starts.
var Current Settings

// idList is a flag.Value of comma-separated rule IDs.
type idList struct{ ids *[]string }

// IDList is a flag.Value that parses comma-separated rule IDs into dst,
// as -disable and -enable do, for other commands' rule flags.
func IDList(dst *[]string) flag.Value { return idList{dst} }

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
	Doc:        analyzerdoc.MustExtract(doc, "slotlint"),
	Run:        run,
	ResultType: reflect.TypeOf((*Config)(nil)),
}

// doc is the package comment that Doc is taken from.
//
//go:embed doc.go
var doc string

func init() {
	Analyzer.Flags.Var(idList{&Current.Disable}, "disable", "comma-separated rule IDs not to report, e.g. SL1104,LUA201")
	Analyzer.Flags.Var(idList{&Current.Enable}, "enable", "comma-separated rule IDs to report exclusively")
	Analyzer.Flags.BoolVar(&Current.Braces, "braces", false, "assume values of unknown text may contain '{' or '}'")
	Analyzer.Flags.BoolVar(&Current.Strict, "strict", false, "also report multi-key commands whose keys cannot be resolved (SL1005)")
}

func run(*analysis.Pass) (any, error) { return New(Current) }
