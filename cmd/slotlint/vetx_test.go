package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestAnswerStandardVetx(t *testing.T) {
	cases := []struct {
		name       string
		importPath string
		vetxOnly   bool
		want       bool
	}{
		{"standard dependency", "net/http", true, true},
		{"module dependency", "github.com/redis/go-redis/v9", true, false},
		{"standard package vetted itself", "net/http", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "vet.out")
			cfg := map[string]any{
				"ImportPath": c.importPath,
				"GoFiles":    []string{filepath.Join(dir, "a.go")},
				"Standard":   map[string]bool{"net/http": true, "fmt": true},
				"VetxOnly":   c.vetxOnly,
				"VetxOutput": out,
			}
			data, _ := json.Marshal(cfg)
			cfgFile := filepath.Join(dir, "vet.cfg")
			if err := os.WriteFile(cfgFile, data, 0o644); err != nil {
				t.Fatal(err)
			}
			answered, code := answerStandardVetx([]string{cfgFile})
			if answered != c.want || code != 0 {
				t.Fatalf("answered %v (status %d), want %v", answered, code, c.want)
			}
			info, err := os.Stat(out)
			switch {
			case c.want && err != nil:
				t.Fatalf("no facts file written: %v", err)
			case c.want && info.Size() != 0:
				t.Fatalf("facts file has %d bytes, want an empty one", info.Size())
			case !c.want && err == nil:
				t.Fatal("wrote a facts file for a package it must analyze")
			}
		})
	}
	if answered, _ := answerStandardVetx([]string{"./..."}); answered {
		t.Error("answered a package pattern")
	}
}
