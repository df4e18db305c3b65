package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/internal/version"
)

// isVetProtocol: go vet -vettool talks to the tool with -V=full (its
// cache key), -flags (the flags it may pass on) and one .cfg file per
// package.
func isVetProtocol(args []string) bool {
	if len(args) == 1 && (args[0] == "-V=full" || args[0] == "-V" || args[0] == "-flags") {
		return true
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// runVet answers go vet. -V=full is slotlint's version and a hash of the
// executable, so that go vet's cache of results changes with the binary;
// the rest is multichecker's (and so unitchecker's) protocol, with the rule
// ID at the start of each message.
func runVet(args []string, stdout io.Writer) int {
	if len(args) == 1 && (args[0] == "-V=full" || args[0] == "-V") {
		line := "slotlint version " + version.Read().String()
		if args[0] == "-V=full" {
			line += " buildID=" + executableHash()
		}
		fmt.Fprintln(stdout, line)
		return exitClean
	}
	// go vet (Go 1.26) always asks the tool for -json and prints the text
	// itself from the messages, so the rule ID goes into every message; a
	// go vet -json reader finds it there as well as in the category.
	runMultichecker(args, withRuleIDs(analyzer.Analyzers())) // exits
	return exitNoLoad
}

// executableHash is the SHA-256 of the running binary, or "unknown".
func executableHash() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(exe)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}
