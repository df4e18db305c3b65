package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/internal/ruleurl"
	"github.com/slotlint/slotlint/internal/version"
	"github.com/slotlint/slotlint/luacheck"
)

// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), the
// subset slotlint writes: one run, the rule catalogue as the driver's
// rules, one result per finding.

const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
	// Columns count characters (code points), not bytes or UTF-16 units.
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	ShortDescription     sarifText   `json:"shortDescription"`
	FullDescription      sarifText   `json:"fullDescription"`
	Help                 sarifText   `json:"help"`
	HelpURI              string      `json:"helpUri"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
	Fixes     []sarifFix      `json:"fixes,omitempty"`
}

// sarifFix is one suggested fix: the edits, grouped by file, that apply it.
type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

// sarifReplacement replaces the deleted region (empty for an insertion:
// its end is its start) by the inserted text.
type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent *sarifText  `json:"insertedContent,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// finding is one diagnostic of either checker, positions in bytes.
type finding struct {
	rule, message string
	file          string
	line, col     int
	endLine, end  int
	fixes         []findingFix
}

// findingFix is a suggested fix of a Go diagnostic.
type findingFix struct {
	message string
	edits   []findingEdit
}

// findingEdit replaces the text from line:col to endLine:end (bytes) of a
// file by text.
type findingEdit struct {
	file                    string
	line, col, endLine, end int
	text                    string
}

// goRules is the Go catalogue as SARIF rule metadata.
func goRules() []sarifRule {
	var out []sarifRule
	for _, r := range rules.All() {
		out = append(out, sarifRule{
			ID:                   r.ID,
			ShortDescription:     sarifText{Text: r.Title},
			FullDescription:      sarifText{Text: r.What},
			Help:                 sarifText{Text: r.Why + "\n\nFix: " + r.Fix + "\n\nSuppress: " + rules.Suppress},
			HelpURI:              ruleurl.For(r.ID),
			DefaultConfiguration: sarifConfig{Level: "warning"},
		})
	}
	return out
}

// luaRules is the Lua catalogue as SARIF rule metadata.
func luaRules() []sarifRule {
	var out []sarifRule
	for _, r := range luacheck.Rules {
		level := "warning"
		if r.ID == luacheck.RuleSyntax {
			level = "error"
		}
		out = append(out, sarifRule{
			ID:                   r.ID,
			ShortDescription:     sarifText{Text: r.Title},
			FullDescription:      sarifText{Text: r.Why},
			Help:                 sarifText{Text: r.Why + "\n\nSuppress: " + luacheck.Suppress},
			HelpURI:              ruleurl.For(r.ID),
			DefaultConfiguration: sarifConfig{Level: level},
		})
	}
	return out
}

// writeSARIF writes one run of findings; file paths under the working
// directory are relative to %SRCROOT%, which is set to it.
func writeSARIF(w io.Writer, ruleList []sarifRule, findings []finding) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	index := map[string]int{}
	for i, r := range ruleList {
		index[r.ID] = i
	}
	columns := columnCounter{}
	results := make([]sarifResult, 0, len(findings))
	for _, f := range findings {
		i, ok := index[f.rule]
		if !ok {
			return fmt.Errorf("finding of unknown rule %q: %s", f.rule, f.message)
		}
		region := sarifRegion{StartLine: max(f.line, 1), StartColumn: columns.of(f.file, f.line, f.col)}
		if f.endLine >= f.line && f.endLine > 0 {
			region.EndLine = f.endLine
			region.EndColumn = columns.of(f.file, f.endLine, f.end)
		}
		results = append(results, sarifResult{
			RuleID: f.rule, RuleIndex: i, Level: ruleList[i].DefaultConfiguration.Level,
			Message:   sarifText{Text: f.message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: artifact(wd, f.file), Region: region}}},
			Fixes:     sarifFixes(wd, columns, f.fixes),
		})
	}
	log := sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "slotlint", Version: version.Read().String(), InformationURI: "https://github.com/slotlint/slotlint", Rules: ruleList,
		}},
		OriginalURIBaseIDs: map[string]sarifArtifact{"%SRCROOT%": {URI: fileURI(wd) + "/"}},
		ColumnKind:         "unicodeCodePoints",
		Results:            results,
	}}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// sarifFixes turns suggested fixes into SARIF fixes, one artifactChange
// per file in the order the files first appear.
func sarifFixes(wd string, columns columnCounter, fixes []findingFix) []sarifFix {
	var out []sarifFix
	for _, fx := range fixes {
		var changes []sarifArtifactChange
		byFile := map[string]int{}
		for _, e := range fx.edits {
			i, ok := byFile[e.file]
			if !ok {
				i = len(changes)
				byFile[e.file] = i
				changes = append(changes, sarifArtifactChange{ArtifactLocation: artifact(wd, e.file)})
			}
			r := sarifReplacement{DeletedRegion: sarifRegion{
				StartLine: e.line, StartColumn: columns.of(e.file, e.line, e.col),
				EndLine: e.endLine, EndColumn: columns.of(e.file, e.endLine, e.end),
			}}
			if e.text != "" {
				r.InsertedContent = &sarifText{Text: e.text}
			}
			changes[i].Replacements = append(changes[i].Replacements, r)
		}
		if len(changes) > 0 {
			out = append(out, sarifFix{Description: sarifText{Text: fx.message}, ArtifactChanges: changes})
		}
	}
	return out
}

func artifact(wd, file string) sarifArtifact {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	if rel, err := filepath.Rel(wd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return sarifArtifact{URI: (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath(), URIBaseID: "%SRCROOT%"}
	}
	return sarifArtifact{URI: fileURI(abs)}
}

func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// columnCounter turns byte columns into code-point columns, reading each
// file once. A file it cannot read keeps byte columns.
type columnCounter map[string][][]byte

func (c columnCounter) of(file string, line, byteCol int) int {
	if byteCol <= 0 {
		return 0
	}
	lines, ok := c[file]
	if !ok {
		if b, err := os.ReadFile(file); err == nil {
			lines = bytes.Split(b, []byte("\n"))
		}
		c[file] = lines
	}
	if line < 1 || line > len(lines) || byteCol-1 > len(lines[line-1]) {
		return byteCol
	}
	return utf8.RuneCount(lines[line-1][:byteCol-1]) + 1
}

// runAnalyzerSARIF runs the analyzers over packages and prints SARIF.
// Like -json, it exits 0 when it could analyze, whatever it found.
func runAnalyzerSARIF(patterns []string, tests bool, stdout, stderr io.Writer) int {
	pkgs, status := loadPackages(patterns, tests, stderr) // load.go
	if pkgs == nil {
		return status
	}
	graph, err := checker.Analyze(analyzer.Analyzers(), pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "slotlint: %v\n", err)
		return exitNoLoad
	}
	if analysisFailed(graph, stderr) {
		status = exitNoLoad
	}
	var found []finding
	seen := map[string]bool{}
	for _, act := range graph.Roots {
		for _, d := range act.Diagnostics {
			f := goFinding(act.Package.Fset, d)
			// A package and its test variant share files: report once.
			key := fmt.Sprintf("%s:%d:%d:%s:%s", f.file, f.line, f.col, f.rule, f.message)
			if !seen[key] {
				seen[key] = true
				found = append(found, f)
			}
		}
	}
	sort.Slice(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.line != b.line {
			return a.line < b.line
		}
		return a.col < b.col
	})
	// Lua findings of scripts held in Go code are reported under LUA IDs.
	if err := writeSARIF(stdout, append(goRules(), luaRules()...), found); err != nil {
		fmt.Fprintf(stderr, "slotlint: %v\n", err)
		return 1
	}
	return status
}

func goFinding(fset *token.FileSet, d analysis.Diagnostic) finding {
	start, end := fset.Position(d.Pos), fset.Position(d.End)
	f := finding{rule: d.Category, message: d.Message, file: start.Filename, line: start.Line, col: start.Column}
	if end.IsValid() && end.Filename == start.Filename {
		f.endLine, f.end = end.Line, end.Column
	}
	for _, sf := range d.SuggestedFixes {
		fx := findingFix{message: sf.Message}
		for _, e := range sf.TextEdits {
			from, to := fset.Position(e.Pos), fset.Position(e.End)
			if !e.End.IsValid() {
				to = from // an insertion
			}
			if !from.IsValid() || to.Filename != from.Filename {
				fx.edits = nil // not an edit SARIF can carry: drop the fix
				break
			}
			fx.edits = append(fx.edits, findingEdit{file: from.Filename, line: from.Line, col: from.Column, endLine: to.Line, end: to.Column, text: string(e.NewText)})
		}
		if len(fx.edits) > 0 {
			f.fixes = append(f.fixes, fx)
		}
	}
	return f
}

// luaFindings are the Lua checker's findings in the form writeSARIF takes.
func luaFindings(list []luacheck.Finding) []finding {
	out := make([]finding, 0, len(list))
	for _, f := range list {
		out = append(out, finding{rule: f.Rule, message: f.Message, file: f.Pos.File, line: f.Pos.Line, col: f.Pos.Column})
	}
	return out
}
