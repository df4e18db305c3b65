package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/internal/vetx"
)

// TestVetClientPackage vets a package of go-redis itself (with its tests),
// a client package no rule checks, which the tool answers with its types
// alone: go vet must accept that answer in text and JSON modes, and report
// nothing.
func TestVetClientPackage(t *testing.T) {
	bin := sharedBinary(t)
	dir := filepath.Join("..", "..", "testdata", "e2e")
	// go vet (Go 1.26) asks the tool for -json output in both modes and
	// keeps -c to itself, so the two runs ask the tool the same and the
	// second reads the first's answers from go vet's cache, which is keyed
	// by a hash of the tool's file: what it prints is this binary's answer.
	code, stdout, stderr := runIn(t, dir, "go", "vet", "-vettool="+bin, "github.com/redis/go-redis/v9/internal/proto")
	if code != 0 || strings.TrimSpace(stdout+stderr) != "" {
		t.Fatalf("go vet of go-redis: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runIn(t, dir, "go", "vet", "-json", "-vettool="+bin, "github.com/redis/go-redis/v9/internal/proto")
	if code != 0 {
		t.Fatalf("go vet -json of go-redis: exit %d\n%s%s", code, stdout, stderr)
	}
	dec := json.NewDecoder(strings.NewReader(stdout + stderr))
	for dec.More() {
		var tree map[string]any
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("go vet -json printed something else than JSON: %v\n%s%s", err, stdout, stderr)
		}
		if len(tree) != 0 {
			t.Errorf("go vet -json reported on go-redis: %v", tree)
		}
	}
}

// TestBinaryLinksVetxLayout: the slotlint binary is linked with the x/tools
// version whose vetx layout the go vet shortcut writes, so the shortcut
// answers (on any other version it steps aside for unitchecker).
func TestBinaryLinksVetxLayout(t *testing.T) {
	bin := sharedBinary(t)
	code, stdout, stderr := runIn(t, ".", "go", "version", "-m", bin)
	if code != 0 {
		t.Fatalf("go version -m: exit %d\n%s", code, stderr)
	}
	linked := ""
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "dep" && f[1] == "golang.org/x/tools" {
			linked = f[2]
		}
	}
	if linked != vetx.WrittenFor {
		t.Errorf("the binary links golang.org/x/tools %q, the vetx layout is written for %q:\n%s", linked, vetx.WrittenFor, stdout)
	}
}
