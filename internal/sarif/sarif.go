// Package sarif writes slotlint's findings, Go and Lua alike, as SARIF
// 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/): the subset a
// code-scanning upload reads, one run with the rule catalogue as the
// driver's rules and one result per finding, with suggested fixes.
package sarif

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/internal/ruleurl"
	"github.com/slotlint/slotlint/internal/version"
	"github.com/slotlint/slotlint/luacheck"
)

// schemaURI is the SARIF 2.1.0 schema that $schema names.
const schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

// Log is a SARIF log: the schema, the version and the runs.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one run of a tool.
type Run struct {
	Tool               Tool                `json:"tool"`
	OriginalURIBaseIDs map[string]Artifact `json:"originalUriBaseIds,omitempty"`
	// Columns count characters (code points), not bytes or UTF-16 units.
	ColumnKind string   `json:"columnKind"`
	Results    []Result `json:"results"`
}

// Tool names the tool of a run.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is the tool's main component, with the rules it reports.
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri"`
	Rules          []Rule `json:"rules"`
}

// Text is a SARIF message: plain text.
type Text struct {
	Text string `json:"text"`
}

// Rule is one rule's metadata (a reportingDescriptor).
type Rule struct {
	ID                   string `json:"id"`
	ShortDescription     Text   `json:"shortDescription"`
	FullDescription      Text   `json:"fullDescription"`
	Help                 Text   `json:"help"`
	HelpURI              string `json:"helpUri"`
	DefaultConfiguration Config `json:"defaultConfiguration"`
}

// Config is a rule's default configuration.
type Config struct {
	Level string `json:"level"`
}

// Artifact locates a file: a URI, relative to a base ID when it has one.
type Artifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Result is one finding.
type Result struct {
	RuleID    string     `json:"ruleId"`
	RuleIndex int        `json:"ruleIndex"`
	Level     string     `json:"level"`
	Message   Text       `json:"message"`
	Locations []Location `json:"locations"`
	Fixes     []Fix      `json:"fixes,omitempty"`
}

// Fix is one suggested fix: the edits, grouped by file, that apply it.
type Fix struct {
	Description     Text             `json:"description"`
	ArtifactChanges []ArtifactChange `json:"artifactChanges"`
}

// ArtifactChange is a fix's replacements in one file.
type ArtifactChange struct {
	ArtifactLocation Artifact      `json:"artifactLocation"`
	Replacements     []Replacement `json:"replacements"`
}

// Replacement replaces the deleted region (empty for an insertion:
// its end is its start) by the inserted text.
type Replacement struct {
	DeletedRegion   Region `json:"deletedRegion"`
	InsertedContent *Text  `json:"insertedContent,omitempty"`
}

// Location is where a result is.
type Location struct {
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
}

// PhysicalLocation is a region of a file.
type PhysicalLocation struct {
	ArtifactLocation Artifact `json:"artifactLocation"`
	Region           Region   `json:"region"`
}

// Region is a span of a file: lines, and columns in code points.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// Finding is one diagnostic of either checker, positions in bytes.
type Finding struct {
	Rule, Message string
	File          string
	Line, Col     int
	EndLine, End  int // 0 when unknown
	Fixes         []FindingFix
}

// FindingFix is a suggested fix of a Go diagnostic.
type FindingFix struct {
	Message string
	Edits   []Edit
}

// Edit replaces the text from line:col to endLine:end (bytes) of a
// file by text.
type Edit struct {
	File                    string
	Line, Col, EndLine, End int
	Text                    string
}

// GoRules is the Go catalogue as SARIF rule metadata.
func GoRules() []Rule {
	var out []Rule
	for _, r := range rules.All() {
		out = append(out, Rule{
			ID:                   r.ID,
			ShortDescription:     Text{Text: r.Title},
			FullDescription:      Text{Text: r.What},
			Help:                 Text{Text: r.Why + "\n\nFix: " + r.Fix + "\n\nSuppress: " + rules.Suppress},
			HelpURI:              ruleurl.For(r.ID),
			DefaultConfiguration: Config{Level: "warning"},
		})
	}
	return out
}

// LuaRules is the Lua catalogue as SARIF rule metadata.
func LuaRules() []Rule {
	var out []Rule
	for _, r := range luacheck.Rules {
		level := "warning"
		if r.ID == luacheck.RuleSyntax {
			level = "error"
		}
		out = append(out, Rule{
			ID:                   r.ID,
			ShortDescription:     Text{Text: r.Title},
			FullDescription:      Text{Text: r.Why},
			Help:                 Text{Text: r.Why + "\n\nSuppress: " + luacheck.Suppress},
			HelpURI:              ruleurl.For(r.ID),
			DefaultConfiguration: Config{Level: level},
		})
	}
	return out
}

// Write writes one run of findings; file paths under the working
// directory are relative to %SRCROOT%, which is set to it.
func Write(w io.Writer, ruleList []Rule, findings []Finding) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	index := map[string]int{}
	for i, r := range ruleList {
		index[r.ID] = i
	}
	columns := columnCounter{}
	results := make([]Result, 0, len(findings))
	for _, f := range findings {
		i, ok := index[f.Rule]
		if !ok {
			return fmt.Errorf("finding of unknown rule %q: %s", f.Rule, f.Message)
		}
		region := Region{StartLine: max(f.Line, 1), StartColumn: columns.of(f.File, f.Line, f.Col)}
		if f.EndLine >= f.Line && f.EndLine > 0 {
			region.EndLine = f.EndLine
			region.EndColumn = columns.of(f.File, f.EndLine, f.End)
		}
		results = append(results, Result{
			RuleID: f.Rule, RuleIndex: i, Level: ruleList[i].DefaultConfiguration.Level,
			Message:   Text{Text: f.Message},
			Locations: []Location{{PhysicalLocation: PhysicalLocation{ArtifactLocation: artifact(wd, f.File), Region: region}}},
			Fixes:     fixes(wd, columns, f.Fixes),
		})
	}
	log := Log{Schema: schemaURI, Version: "2.1.0", Runs: []Run{{
		Tool: Tool{Driver: Driver{
			Name: "slotlint", Version: version.Read().String(), InformationURI: "https://github.com/slotlint/slotlint", Rules: ruleList,
		}},
		OriginalURIBaseIDs: map[string]Artifact{"%SRCROOT%": {URI: fileURI(wd) + "/"}},
		ColumnKind:         "unicodeCodePoints",
		Results:            results,
	}}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// fixes turns suggested fixes into SARIF fixes, one artifactChange
// per file in the order the files first appear.
func fixes(wd string, columns columnCounter, list []FindingFix) []Fix {
	var out []Fix
	for _, fx := range list {
		var changes []ArtifactChange
		byFile := map[string]int{}
		for _, e := range fx.Edits {
			i, ok := byFile[e.File]
			if !ok {
				i = len(changes)
				byFile[e.File] = i
				changes = append(changes, ArtifactChange{ArtifactLocation: artifact(wd, e.File)})
			}
			r := Replacement{DeletedRegion: Region{
				StartLine: e.Line, StartColumn: columns.of(e.File, e.Line, e.Col),
				EndLine: e.EndLine, EndColumn: columns.of(e.File, e.EndLine, e.End),
			}}
			if e.Text != "" {
				r.InsertedContent = &Text{Text: e.Text}
			}
			changes[i].Replacements = append(changes[i].Replacements, r)
		}
		if len(changes) > 0 {
			out = append(out, Fix{Description: Text{Text: fx.Message}, ArtifactChanges: changes})
		}
	}
	return out
}

func artifact(wd, file string) Artifact {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	if rel, err := filepath.Rel(wd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return Artifact{URI: (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath(), URIBaseID: "%SRCROOT%"}
	}
	return Artifact{URI: fileURI(abs)}
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

func FromDiagnostic(fset *token.FileSet, d analysis.Diagnostic) Finding {
	start, end := fset.Position(d.Pos), fset.Position(d.End)
	f := Finding{Rule: d.Category, Message: d.Message, File: start.Filename, Line: start.Line, Col: start.Column}
	if end.IsValid() && end.Filename == start.Filename {
		f.EndLine, f.End = end.Line, end.Column
	}
	for _, sf := range d.SuggestedFixes {
		fx := FindingFix{Message: sf.Message}
		for _, e := range sf.TextEdits {
			from, to := fset.Position(e.Pos), fset.Position(e.End)
			if !e.End.IsValid() {
				to = from // an insertion
			}
			if !from.IsValid() || to.Filename != from.Filename {
				fx.Edits = nil // not an edit SARIF can carry: drop the fix
				break
			}
			fx.Edits = append(fx.Edits, Edit{File: from.Filename, Line: from.Line, Col: from.Column, EndLine: to.Line, End: to.Column, Text: string(e.NewText)})
		}
		if len(fx.Edits) > 0 {
			f.Fixes = append(f.Fixes, fx)
		}
	}
	return f
}

// LuaFindings are the Lua checker's findings in the form Write takes.
func LuaFindings(list []luacheck.Finding) []Finding {
	out := make([]Finding, 0, len(list))
	for _, f := range list {
		out = append(out, Finding{Rule: f.Rule, Message: f.Message, File: f.Pos.File, Line: f.Pos.Line, Col: f.Pos.Column})
	}
	return out
}
