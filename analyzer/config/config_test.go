package config_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/internal/suitetest"
)

// withFlags sets the settings through the analyzer's own flags, as the CLI
// and go vet do, and restores them afterwards.
func withFlags(t *testing.T, args ...string) {
	t.Helper()
	saved := config.Current
	t.Cleanup(func() { config.Current = saved })
	config.Current = config.Settings{}
	if err := config.Analyzer.Flags.Parse(args); err != nil {
		t.Fatal(err)
	}
}

func TestStrict(t *testing.T) {
	withFlags(t, "-strict")
	suitetest.Wants(t, filepath.Join("..", "testdata"), crossslot.Analyzer, "./strict")
}

func TestBraces(t *testing.T) {
	withFlags(t, "-braces")
	suitetest.Wants(t, filepath.Join("..", "testdata"), crossslot.Analyzer, "./braces")
}

func TestDisable(t *testing.T) {
	withFlags(t, "-disable=sl1002")
	suitetest.Wants(t, filepath.Join("..", "testdata"), crossslot.Analyzer, "./disabled")
}

func TestSettings(t *testing.T) {
	c, err := config.New(config.Settings{Enable: []string{"SL1001"}})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Enabled("SL1001") || c.Enabled("SL1002") {
		t.Errorf("-enable=SL1001: SL1001 %v, SL1002 %v", c.Enabled("SL1001"), c.Enabled("SL1002"))
	}
	if c, _ := config.New(config.Settings{}); c.Enabled("SL1005") {
		t.Error("SL1005 is on without -strict")
	}
	if c, _ := config.New(config.Settings{Strict: true, Disable: []string{"SL1005"}}); c.Enabled("SL1005") {
		t.Error("SL1005 is on although disabled")
	}
	_, err = config.New(config.Settings{Disable: []string{"SL9999"}})
	if err == nil || !strings.Contains(err.Error(), `unknown rule "SL9999"`) {
		t.Errorf("unknown rule: err = %v", err)
	}
}

// TestLuaIDs: the LUA IDs that Go mode reports (inside scripts held in Go
// code, under SL1202) are rule IDs of the settings too.
func TestLuaIDs(t *testing.T) {
	c, err := config.New(config.Settings{Disable: []string{"LUA201"}})
	if err != nil {
		t.Fatalf("-disable=LUA201: %v", err)
	}
	if c.Enabled("LUA201") || !c.Enabled("LUA101") || !c.Enabled("SL1202") {
		t.Errorf("-disable=LUA201: LUA201 %v, LUA101 %v, SL1202 %v", c.Enabled("LUA201"), c.Enabled("LUA101"), c.Enabled("SL1202"))
	}
	c, _ = config.New(config.Settings{Disable: []string{"SL1202"}})
	if c.Enabled("LUA101") {
		t.Error("-disable=SL1202 leaves LUA101 on")
	}
	c, _ = config.New(config.Settings{Enable: []string{"LUA201"}})
	if !c.Enabled("LUA201") || c.Enabled("LUA101") || c.Enabled("SL1001") {
		t.Errorf("-enable=LUA201: LUA201 %v, LUA101 %v, SL1001 %v", c.Enabled("LUA201"), c.Enabled("LUA101"), c.Enabled("SL1001"))
	}
	c, _ = config.New(config.Settings{Enable: []string{"SL1202"}})
	if !c.Enabled("LUA101") || c.Enabled("SL1001") {
		t.Errorf("-enable=SL1202: LUA101 %v, SL1001 %v", c.Enabled("LUA101"), c.Enabled("SL1001"))
	}
	_, err = config.New(config.Settings{Disable: []string{"LUA999"}})
	var unknown *config.RuleError
	if !errors.As(err, &unknown) || unknown.ID != "LUA999" || !strings.Contains(err.Error(), "LUA201") {
		t.Errorf("unknown LUA rule: err = %v, want a RuleError listing the LUA rules too", err)
	}
}
