package main

import (
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/internal/sarif"
)

// boolFlagCases are spellings of -sarif and -json, the output format each
// picks and slotlint's exit status with findings.
var boolFlagCases = []struct {
	flags  []string
	format string // "text", "json" or "sarif"
	code   int
}{
	{[]string{"-sarif=false"}, "text", 3},
	{[]string{"--sarif=false"}, "text", 3},
	{[]string{"-json=false"}, "text", 3},
	{[]string{"-sarif=false", "-json=false"}, "text", 3},
	{[]string{"-sarif=true"}, "sarif", 0},
	{[]string{"-sarif", "-json=false"}, "sarif", 0},
	{[]string{"-json=false", "-sarif=1"}, "sarif", 0},
	{[]string{"-json=true"}, "json", 0},
	{[]string{"-sarif=false", "-json"}, "json", 0},
	{[]string{"-json", "-sarif=0"}, "json", 0},
}

// TestBoolFlags: -sarif and -json take the =true and =false forms of any
// boolean flag and set the output format they say; none of the spellings
// is taken for go vet's protocol (which run tries first).
func TestBoolFlags(t *testing.T) {
	for _, tt := range boolFlagCases {
		args := append(slices.Clone(tt.flags), "./app")
		if isVetProtocol(args) {
			t.Errorf("slotlint %s: taken for go vet's protocol", strings.Join(args, " "))
		}
		fs, f := newAnalyzeFlagSet(io.Discard)
		if err := fs.Parse(args); err != nil {
			t.Errorf("slotlint %s: %v", strings.Join(args, " "), err)
			continue
		}
		format := "text"
		switch {
		case f.json && f.sarif:
			format = "json and sarif"
		case f.json:
			format = "json"
		case f.sarif:
			format = "sarif"
		}
		if format != tt.format || !slices.Equal(fs.Args(), []string{"./app"}) {
			t.Errorf("slotlint %s: format %s, packages %q; want %s, [./app]", strings.Join(args, " "), format, fs.Args(), tt.format)
		}
	}
}

// TestEndToEndBoolFlags: through the binary, each output format that
// TestBoolFlags picks is printed, in the spelling with both flags, and
// contradictory or malformed values are usage errors. The runs are over
// the whole module: the JSON and SARIF runs are those TestEndToEndJSON and
// TestSARIFAnalyzer check in detail (runShared).
func TestEndToEndBoolFlags(t *testing.T) {
	bin := sharedBinary(t)
	dir := filepath.Join("..", "..", "testdata", "e2e")
	output := map[string]func(string) bool{
		"text": func(out string) bool { return strings.Contains(out, `app.go:21:9: SL1001 MGET keys "count:a"`) },
		"json": func(out string) bool {
			var tree map[string]map[string][]struct{ Category string }
			return json.Unmarshal([]byte(out), &tree) == nil && strings.Contains(out, `"SL1001"`)
		},
		"sarif": func(out string) bool {
			var log sarif.Log
			return json.Unmarshal([]byte(out), &log) == nil && log.Version == "2.1.0" && strings.Contains(out, `"ruleId": "SL1001"`)
		},
	}
	// One analysis of ./app per format: the other spellings set the same
	// flags (TestBoolFlags), and the flags alone pick the output.
	ran := map[string]bool{}
	for _, tt := range boolFlagCases {
		if ran[tt.format] || len(tt.flags) < 2 {
			continue
		}
		ran[tt.format] = true
		code, stdout, stderr := runShared(t, dir, bin, append(slices.Clone(tt.flags), "./...")...)
		if code != tt.code || !output[tt.format](stdout+stderr) {
			t.Errorf("slotlint %s ./...: exit %d (want %d), output not %s:\nstdout:\n%s\nstderr:\n%s", strings.Join(tt.flags, " "), code, tt.code, tt.format, stdout, stderr)
		}
	}
	if len(ran) != 3 {
		t.Fatalf("formats run: %v, want text, json and sarif", ran)
	}
	for _, flags := range [][]string{{"-sarif", "-json"}, {"-json=true", "-sarif=true"}, {"-sarif=maybe"}} {
		code, stdout, stderr := runIn(t, dir, bin, append(flags, "./app")...)
		if code != 2 || stdout != "" || stderr == "" {
			t.Errorf("slotlint %s ./app: exit %d, want 2 with a usage error\nstdout:\n%s\nstderr:\n%s", strings.Join(flags, " "), code, stdout, stderr)
		}
	}
}
