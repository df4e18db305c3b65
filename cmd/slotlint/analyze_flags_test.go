package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/internal/sarif"
)

// TestEndToEndBoolFlags: -sarif and -json take the =true and =false forms
// of any boolean flag, through the binary, and pick the output format
// they say.
func TestEndToEndBoolFlags(t *testing.T) {
	bin := sharedBinary(t)
	dir := filepath.Join("..", "..", "testdata", "e2e")
	text := func(out string) bool { return strings.Contains(out, `app.go:21:9: SL1001 MGET keys "count:a"`) }
	isJSON := func(out string) bool {
		var tree map[string]map[string][]struct{ Category string }
		return json.Unmarshal([]byte(out), &tree) == nil && strings.Contains(out, `"SL1001"`)
	}
	isSARIF := func(out string) bool {
		var log sarif.Log
		return json.Unmarshal([]byte(out), &log) == nil && log.Version == "2.1.0" && strings.Contains(out, `"ruleId": "SL1001"`)
	}
	for _, tt := range []struct {
		flags  []string
		code   int
		output func(string) bool
	}{
		{[]string{"-sarif=false"}, 3, text},
		{[]string{"--sarif=false"}, 3, text},
		{[]string{"-json=false"}, 3, text},
		{[]string{"-sarif=false", "-json=false"}, 3, text},
		{[]string{"-sarif=true"}, 0, isSARIF},
		{[]string{"-sarif", "-json=false"}, 0, isSARIF},
		{[]string{"-json=false", "-sarif=1"}, 0, isSARIF},
		{[]string{"-json=true"}, 0, isJSON},
		{[]string{"-sarif=false", "-json"}, 0, isJSON},
		{[]string{"-json", "-sarif=0"}, 0, isJSON},
	} {
		code, stdout, stderr := runIn(t, dir, bin, append(tt.flags, "./app")...)
		if code != tt.code || !tt.output(stdout+stderr) {
			t.Errorf("slotlint %s ./app: exit %d (want %d), output not in the expected format:\nstdout:\n%s\nstderr:\n%s", strings.Join(tt.flags, " "), code, tt.code, stdout, stderr)
		}
	}
	for _, flags := range [][]string{{"-sarif", "-json"}, {"-json=true", "-sarif=true"}, {"-sarif=maybe"}} {
		code, stdout, stderr := runIn(t, dir, bin, append(flags, "./app")...)
		if code != 2 || stdout != "" || stderr == "" {
			t.Errorf("slotlint %s ./app: exit %d, want 2 with a usage error\nstdout:\n%s\nstderr:\n%s", strings.Join(flags, " "), code, stdout, stderr)
		}
	}
}
