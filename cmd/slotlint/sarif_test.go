package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/internal/ruleurl"
	"github.com/slotlint/slotlint/internal/sarif"
	"github.com/slotlint/slotlint/internal/sarif/sariftest"
	"github.com/slotlint/slotlint/luacheck"
)

// TestSARIFAnalyzer: slotlint -sarif on the e2e module validates, carries
// every Go rule with its metadata, and lists the findings of the text
// output at the same places.
func TestSARIFAnalyzer(t *testing.T) {
	bin := sharedBinary(t)
	dir := filepath.Join("..", "..", "testdata", "e2e")
	// The run of TestEndToEndBoolFlags that prints SARIF: -sarif spelled
	// beside -json=false (TestBoolFlags parses -sarif alone, and
	// TestExampleSARIF runs it so on the example).
	code, stdout, stderr := runShared(t, dir, bin, "-sarif", "-json=false", "./...")
	if code != 0 {
		t.Fatalf("slotlint -sarif: exit %d\n%s", code, stderr)
	}
	log := sariftest.Valid(t, stdout)
	run := log.Runs[0]
	if run.Tool.Driver.Name != "slotlint" {
		t.Errorf("driver name %q", run.Tool.Driver.Name)
	}
	byID := map[string]sarif.Rule{}
	for _, r := range run.Tool.Driver.Rules {
		byID[r.ID] = r
	}
	for _, r := range rules.All() {
		got, ok := byID[r.ID]
		if !ok {
			t.Errorf("rule %s missing from the driver's rules", r.ID)
			continue
		}
		if got.ShortDescription.Text != r.Title || got.FullDescription.Text != r.What || got.HelpURI != ruleurl.For(r.ID) || !strings.Contains(got.Help.Text, r.Why) {
			t.Errorf("rule %s metadata: %+v", r.ID, got)
		}
	}
	var got []string
	for _, res := range run.Results {
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %s has ruleIndex %d of rule %s", res.RuleID, res.RuleIndex, run.Tool.Driver.Rules[res.RuleIndex].ID)
		}
		loc := res.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
			t.Errorf("result %s: artifact %+v not relative to %%SRCROOT%%", res.RuleID, loc.ArtifactLocation)
		}
		got = append(got, strings.Join([]string{loc.ArtifactLocation.URI, strconv.Itoa(loc.Region.StartLine), strconv.Itoa(loc.Region.StartColumn), " " + res.RuleID + " " + res.Message.Text}, ":"))
	}
	// Text output's "ID message", from the result's ruleId and message.
	want := e2eWant()
	if strings.Join(sorted(got), "\n") != strings.Join(want, "\n") {
		t.Errorf("SARIF results:\n%s\nwant:\n%s", strings.Join(sorted(got), "\n"), strings.Join(want, "\n"))
	}

	// Settings work as in the text mode.
	_, stdout, _ = runIn(t, dir, bin, "-sarif", "-slotlint.disable=SL1001", "./app")
	if strings.Contains(stdout, `"ruleId": "SL1001"`) || !strings.Contains(stdout, `"ruleId": "SL1002"`) {
		t.Errorf("-slotlint.disable=SL1001 with -sarif:\n%s", stdout)
	}
	// A package that does not type-check: its errors and a failure status.
	code, stdout, stderr = runIn(t, filepath.Join("..", "..", "testdata", "e2e-broken"), bin, "-sarif", "./...")
	if code != 1 || !strings.Contains(stderr, "undefined: undefinedName") || strings.Contains(stdout+stderr, "panic") {
		t.Errorf("-sarif on a broken package: exit %d, want 1 with the type error\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr := runIn(t, dir, bin, "-sarif", "-nosuchflag", "./..."); code != 2 || !strings.Contains(stderr, "nosuchflag") {
		t.Errorf("-sarif with an unknown flag: exit %d\n%s", code, stderr)
	}
}

// TestSARIFLua: slotlint lua -sarif validates, carries every Lua rule, and
// counts columns in characters.
func TestSARIFLua(t *testing.T) {
	dir := t.TempDir()
	// "é" is two bytes: the finding (at the command name) is at byte 30,
	// character 29.
	script := "local v = 'é' .. redis.call('GET', 'config:limit')\nreturn v\n"
	if err := os.WriteFile(filepath.Join(dir, "bad.lua"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"lua", "-sarif", filepath.Join(dir, "bad.lua")}, nil, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("slotlint lua -sarif: exit %d, want 1 (findings)\n%s", code, stderr.String())
	}
	log := sariftest.Valid(t, stdout.String())
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(luacheck.Rules) {
		t.Errorf("%d rules, want the %d Lua rules", len(run.Tool.Driver.Rules), len(luacheck.Rules))
	}
	for i, r := range luacheck.Rules {
		got := run.Tool.Driver.Rules[i]
		if got.ID != r.ID || got.ShortDescription.Text != r.Title || got.HelpURI != ruleurl.For(r.ID) {
			t.Errorf("rule %d: %+v, want %s %q", i, got, r.ID, r.Title)
		}
	}
	if len(run.Results) != 1 {
		t.Fatalf("%d results, want 1: %+v", len(run.Results), run.Results)
	}
	res := run.Results[0]
	region := res.Locations[0].PhysicalLocation.Region
	if res.RuleID != "LUA201" || region.StartLine != 1 || region.StartColumn != 29 {
		t.Errorf("result %s at %d:%d, want LUA201 at 1:29 (characters)", res.RuleID, region.StartLine, region.StartColumn)
	}
	if !strings.HasSuffix(res.Locations[0].PhysicalLocation.ArtifactLocation.URI, "/bad.lua") {
		t.Errorf("artifact %+v", res.Locations[0].PhysicalLocation.ArtifactLocation)
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// TestSARIFFixes: a diagnostic's suggested fix is a SARIF fix whose
// replacements, applied by columns in characters, give the text -fix
// writes; the fix validates against the schema.
func TestSARIFFixes(t *testing.T) {
	bin := sharedBinary(t)
	// "é" is two bytes: columns after it differ in bytes and characters.
	src := `package fixme

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Load(ctx context.Context, rdb *redis.Client, id string) {
	rdb.MGet(ctx, "café:"+id+":name", "café:"+id+":email")
}
`
	dir := copyModule(t, map[string]string{"fixme.go": src})
	code, stdout, stderr := runIn(t, dir, bin, "-sarif", ".")
	if code != 0 {
		t.Fatalf("slotlint -sarif: exit %d\n%s", code, stderr)
	}
	log := sariftest.Valid(t, stdout)
	results := log.Runs[0].Results
	if len(results) != 1 || results[0].RuleID != "SL1002" || len(results[0].Fixes) != 1 {
		t.Fatalf("want one SL1002 result with one fix, got %+v", results)
	}
	fix := results[0].Fixes[0]
	if fix.Description.Text != "wrap id in {} so the keys share a hash tag" {
		t.Errorf("fix description %q", fix.Description.Text)
	}
	if len(fix.ArtifactChanges) != 1 || fix.ArtifactChanges[0].ArtifactLocation.URI != "fixme.go" {
		t.Fatalf("artifact changes %+v, want one for fixme.go", fix.ArtifactChanges)
	}
	reps := fix.ArtifactChanges[0].Replacements
	// The first inserts "{" before the quote that ends "café: (line 10,
	// character 22, byte 23), an empty region.
	want := sarif.Replacement{DeletedRegion: sarif.Region{StartLine: 10, StartColumn: 22, EndLine: 10, EndColumn: 22}, InsertedContent: &sarif.Text{Text: "{"}}
	if len(reps) != 4 || reps[0].DeletedRegion != want.DeletedRegion || reps[0].InsertedContent == nil || *reps[0].InsertedContent != *want.InsertedContent {
		t.Fatalf("replacements %+v, want 4, the first %+v", reps, want)
	}
	// Applied from the last to the first, the replacements give the fix.
	lines := strings.Split(src, "\n")
	for i := len(reps) - 1; i >= 0; i-- {
		r := reps[i]
		if r.DeletedRegion.StartLine != 10 || r.DeletedRegion.EndLine != 10 {
			t.Fatalf("replacement %+v is not on line 10", r)
		}
		line := []rune(lines[9])
		text := ""
		if r.InsertedContent != nil {
			text = r.InsertedContent.Text
		}
		lines[9] = string(line[:r.DeletedRegion.StartColumn-1]) + text + string(line[r.DeletedRegion.EndColumn-1:])
	}
	if got, fixed := lines[9], "\trdb.MGet(ctx, \"café:{\"+id+\"}:name\", \"café:{\"+id+\"}:email\")"; got != fixed {
		t.Errorf("the SARIF fix gives\n%s\nwant\n%s", got, fixed)
	}
}
