package sarif_test

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/internal/sarif"
	"github.com/slotlint/slotlint/internal/sarif/sariftest"
	"github.com/slotlint/slotlint/luacheck"
)

// The validator must refuse what the schema forbids, or a pass proves
// nothing.
func TestSchemaRejects(t *testing.T) {
	for _, bad := range []string{
		`{"version": "2.1.0"}`,
		`{"version": "2.0.0", "runs": []}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}`,
	} {
		if sariftest.Check(t, bad) == nil {
			t.Errorf("schema accepts %s", bad)
		}
	}
}

// TestWrite: columns in characters, paths relative to %SRCROOT% (the
// working directory) or absolute file URIs outside it, fixes grouped by
// file, and an error for a finding of a rule not in the list.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	// "é" is two bytes: byte column 14 (the quote after it) is character
	// column 13.
	if err := os.WriteFile("bad.lua", []byte("local v = 'é' .. redis.call('GET', 'k')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "other.lua")
	findings := []sarif.Finding{
		{Rule: "LUA201", Message: "key not passed in KEYS", File: "bad.lua", Line: 1, Col: 18, EndLine: 1, End: 28,
			Fixes: []sarif.FindingFix{{Message: "insert", Edits: []sarif.Edit{{File: "bad.lua", Line: 1, Col: 14, EndLine: 1, End: 14, Text: "x"}}}}},
		{Rule: "LUA001", Message: "syntax error", File: outside, Line: 2, Col: 1},
	}
	var out bytes.Buffer
	if err := sarif.Write(&out, sarif.LuaRules(), findings); err != nil {
		t.Fatal(err)
	}
	log := sariftest.Valid(t, out.String())
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(luacheck.Rules) || run.Tool.Driver.Name != "slotlint" || run.Tool.Driver.Version == "" {
		t.Errorf("driver %+v", run.Tool.Driver)
	}
	if len(run.Results) != 2 {
		t.Fatalf("%d results, want 2", len(run.Results))
	}
	first := run.Results[0]
	loc := first.Locations[0].PhysicalLocation
	if loc.ArtifactLocation != (sarif.Artifact{URI: "bad.lua", URIBaseID: "%SRCROOT%"}) || loc.Region != (sarif.Region{StartLine: 1, StartColumn: 17, EndLine: 1, EndColumn: 27}) {
		t.Errorf("first location %+v, want bad.lua under %%SRCROOT%% at 1:17-1:27 (characters)", loc)
	}
	if run.Tool.Driver.Rules[first.RuleIndex].ID != "LUA201" {
		t.Errorf("ruleIndex %d is not LUA201's", first.RuleIndex)
	}
	want := sarif.Replacement{DeletedRegion: sarif.Region{StartLine: 1, StartColumn: 13, EndLine: 1, EndColumn: 13}, InsertedContent: &sarif.Text{Text: "x"}}
	if len(first.Fixes) != 1 || len(first.Fixes[0].ArtifactChanges) != 1 {
		t.Fatalf("fixes %+v, want one change of one file", first.Fixes)
	}
	got := first.Fixes[0].ArtifactChanges[0].Replacements
	if len(got) != 1 || got[0].DeletedRegion != want.DeletedRegion || *got[0].InsertedContent != *want.InsertedContent {
		t.Errorf("replacements %+v, want %+v", got, want)
	}
	second := run.Results[1].Locations[0].PhysicalLocation.ArtifactLocation
	if second.URIBaseID != "" || !strings.HasPrefix(second.URI, "file:///") || !strings.HasSuffix(second.URI, "/other.lua") {
		t.Errorf("a file outside the working directory: %+v, want an absolute file URI", second)
	}
	if base := run.OriginalURIBaseIDs["%SRCROOT%"].URI; !strings.HasPrefix(base, "file:///") || !strings.HasSuffix(base, "/") {
		t.Errorf("%%SRCROOT%% is %q", base)
	}

	err := sarif.Write(&bytes.Buffer{}, sarif.LuaRules(), []sarif.Finding{{Rule: "SL1001", Message: "m", File: "bad.lua", Line: 1}})
	if err == nil || !strings.Contains(err.Error(), `unknown rule "SL1001"`) {
		t.Errorf("a finding of a rule not in the list: %v", err)
	}
}

// TestFromDiagnostic: an insertion's end is its start, and a fix with an
// edit in another file than its start is dropped (SARIF places each
// replacement in one artifact, but an edit must not span two).
func TestFromDiagnostic(t *testing.T) {
	fset := token.NewFileSet()
	a := fset.AddFile("a.go", -1, 100)
	a.SetLines([]int{0, 40})
	b := fset.AddFile("b.go", -1, 100)
	at := func(f *token.File, off int) token.Pos { return f.Pos(off) }
	d := analysis.Diagnostic{Pos: at(a, 41), End: at(a, 45), Category: "SL1002", Message: "m", SuggestedFixes: []analysis.SuggestedFix{
		{Message: "insert", TextEdits: []analysis.TextEdit{{Pos: at(a, 42), NewText: []byte("{")}}},
		{Message: "span", TextEdits: []analysis.TextEdit{{Pos: at(a, 42), End: at(b, 3)}}},
	}}
	f := sarif.FromDiagnostic(fset, d)
	if f.Rule != "SL1002" || f.File != "a.go" || f.Line != 2 || f.Col != 2 || f.EndLine != 2 || f.End != 6 {
		t.Errorf("finding %+v, want SL1002 at a.go:2:2-2:6", f)
	}
	if len(f.Fixes) != 1 || f.Fixes[0].Message != "insert" {
		t.Fatalf("fixes %+v, want the insertion only", f.Fixes)
	}
	if e := f.Fixes[0].Edits[0]; e != (sarif.Edit{File: "a.go", Line: 2, Col: 3, EndLine: 2, End: 3, Text: "{"}) {
		t.Errorf("insertion %+v, want an empty region at 2:3", e)
	}
}
