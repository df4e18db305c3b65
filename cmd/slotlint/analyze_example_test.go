package main

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestExampleModule runs the binary over the bundled example module (the
// README quick start) and checks it reports exactly the bugs planted there.
func TestExampleModule(t *testing.T) {
	bin := sharedBinary(t)
	dir := filepath.Join("..", "..", "example")
	code, stdout, stderr := runIn(t, dir, bin, "-json", "./...")
	if code != 0 {
		t.Fatalf("slotlint -json: exit %d\n%s", code, stderr)
	}
	var tree map[string]map[string][]struct {
		Posn     string `json:"posn"`
		Category string `json:"category"`
	}
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	var got []string
	for _, byAnalyzer := range tree {
		for _, ds := range byAnalyzer {
			for _, d := range ds {
				_, lineCol, _ := strings.Cut(filepath.Base(d.Posn), ":")
				line, _, _ := strings.Cut(lineCol, ":")
				got = append(got, d.Category+"@"+line)
			}
		}
	}
	sort.Strings(got)
	want := []string{"SL1002@37", "SL1002@42", "SL1002@63", "SL1003@28", "SL1004@58", "SL1101@48", "SL1105@63"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("example findings: %v\nwant: %v", got, want)
	}
}
