package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestTakeSARIF(t *testing.T) {
	for _, tt := range []struct {
		args        []string
		sarif, seen bool
		rest        string
		bad         bool
	}{
		{args: []string{"./..."}, rest: "./..."},
		{args: []string{"-sarif", "./..."}, sarif: true, seen: true, rest: "./..."},
		{args: []string{"-sarif=true", "./..."}, sarif: true, seen: true, rest: "./..."},
		{args: []string{"--sarif=false", "-json", "./..."}, seen: true, rest: "-json ./..."},
		{args: []string{"-sarif=1", "-sarif=0", "./..."}, seen: true, rest: "./..."},
		{args: []string{"-sarif=F", "-test=false", "-sarif", "./..."}, sarif: true, seen: true, rest: "-test=false ./..."},
		// A flag's value is not a package pattern: the scan goes on.
		{args: []string{"-slotlint.disable", "SL1001", "-sarif", "./..."}, sarif: true, seen: true, rest: "-slotlint.disable SL1001 ./..."},
		{args: []string{"-c", "2", "-sarif=false", "./..."}, seen: true, rest: "-c 2 ./..."},
		// Only the flags before the packages are flags.
		{args: []string{"./...", "-sarif"}, rest: "./... -sarif"},
		{args: []string{"--", "-sarif"}, rest: "-- -sarif"},
		{args: []string{"-sarif=maybe", "./..."}, bad: true},
	} {
		sarif, rest, seen, err := takeSARIF(tt.args)
		if tt.bad {
			if err == nil || !strings.Contains(err.Error(), `"maybe"`) {
				t.Errorf("%q: error %v, want one naming the value", tt.args, err)
			}
			continue
		}
		if err != nil || sarif != tt.sarif || seen != tt.seen || strings.Join(rest, " ") != tt.rest {
			t.Errorf("%q: sarif %v seen %v rest %q err %v, want %v %v %q", tt.args, sarif, seen, strings.Join(rest, " "), err, tt.sarif, tt.seen, tt.rest)
		}
	}
}

// TestEndToEndBoolFlags: -sarif and -json take the =true and =false forms
// of any boolean flag, through the binary, and pick the output format
// they say.
func TestEndToEndBoolFlags(t *testing.T) {
	bin := sharedBinary(t)
	dir := filepath.Join("..", "..", "testdata", "e2e")
	text := func(out string) bool { return strings.Contains(out, `app.go:21:9: MGET keys "count:a"`) }
	isJSON := func(out string) bool {
		var tree map[string]map[string][]struct{ Category string }
		return json.Unmarshal([]byte(out), &tree) == nil && strings.Contains(out, `"SL1001"`)
	}
	isSARIF := func(out string) bool {
		var log sarifLog
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
