package golangci

import (
	"errors"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/internal/version"
)

// golangci-lint hands the plugin the YAML settings as generic values.
func TestSettingsReachConfig(t *testing.T) {
	defer func(saved config.Settings) { config.Current = saved }(config.Current)
	newPlugin, err := register.GetPlugin("slotlint")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{"disable": []any{"sl1104"}, "braces": true, "strict": true})
	if err != nil {
		t.Fatal(err)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q", p.GetLoadMode(), register.LoadModeTypesInfo)
	}
	as, err := p.BuildAnalyzers()
	if err != nil || len(as) == 0 {
		t.Fatalf("BuildAnalyzers: %d analyzers, %v", len(as), err)
	}
	want := config.Settings{Disable: []string{"SL1104"}, Braces: true, Strict: true}
	got := config.Current
	if strings.Join(got.Disable, ",") != "SL1104" || got.Braces != want.Braces || got.Strict != want.Strict || len(got.Enable) != 0 {
		t.Errorf("config.Current = %+v, want %+v", got, want)
	}
	cfg, err := config.New(got)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Enabled("SL1104") || !cfg.Enabled("SL1005") || !cfg.Slot.HolesMayContainBraces {
		t.Errorf("config from plugin settings: SL1104 %v, SL1005 %v, braces %v", cfg.Enabled("SL1104"), cfg.Enabled("SL1005"), cfg.Slot.HolesMayContainBraces)
	}
}

func TestBadSettings(t *testing.T) {
	for _, tt := range []struct {
		settings any
		want     string
	}{
		{map[string]any{"disable": []any{"SL9999"}}, `unknown rule "SL9999"`},
		{map[string]any{"brace": true}, `unknown field "brace"`},
		{map[string]any{"strict": "yes"}, "cannot unmarshal"},
	} {
		_, err := New(tt.settings)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%v): error %v, want one containing %q", tt.settings, err, tt.want)
			continue
		}
		// The error says which slotlint golangci-lint was built with.
		if prefix := "slotlint " + version.Read().String() + ": "; !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("New(%v): error %q does not start with the version, %q", tt.settings, err, prefix)
		}
		if strings.Count(err.Error(), "slotlint") != 1 {
			t.Errorf("New(%v): error %q names slotlint more than once", tt.settings, err)
		}
	}
	var re *config.RuleError
	if _, err := New(map[string]any{"enable": []any{"SL9998"}}); !errors.As(err, &re) || re.ID != "SL9998" {
		t.Errorf("New with an unknown rule: %v, want a *config.RuleError for SL9998 under the version", err)
	}
	if _, err := New(nil); err != nil {
		t.Errorf("New(nil) (no settings block): %v", err)
	}
}
