// Command gen writes the rule docs (package ruledocs) into the directory
// given as its argument and removes docs of rules that no longer exist.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	ruledocs "github.com/slotlint/slotlint/docs/rules"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "ruledocs:", err)
		os.Exit(1)
	}
}

func write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := ruledocs.Render()
	old, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return err
	}
	for _, path := range old {
		if _, ok := files[filepath.Base(path)]; !ok {
			if err := os.Remove(path); err != nil {
				return err
			}
		}
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if cur, err := os.ReadFile(path); err == nil && bytes.Equal(cur, text) {
			continue
		}
		if strings.ContainsAny(name, `/\`) {
			return fmt.Errorf("bad doc name %q", name)
		}
		if err := os.WriteFile(path, text, 0o644); err != nil {
			return err
		}
	}
	return nil
}
