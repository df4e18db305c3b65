package main

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/internal/pkgload"
)

// loadPackages loads the named packages with everything the analyzers need
// (their dependencies' syntax too: key builders are facts), the standard
// library's and the client libraries' declarations alone (pkgload). When the
// patterns match nothing it says so and returns nil. A package that does
// not load (a mistyped path, no module, a compile error) is reported once
// per distinct error, with what to do, instead of once per analyzer as
// "analysis skipped due to errors in package"; the others are still
// analyzed, and the status is exitNoLoad.
func loadPackages(patterns []string, tests bool, stderr io.Writer) ([]*packages.Package, int) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Tests: tests}
	pkgs, err := pkgload.Load(cfg, patterns...)
	if err != nil {
		fmt.Fprintf(stderr, "slotlint: cannot load %s: %v\n", strings.Join(patterns, " "), firstLine(err.Error()))
		fmt.Fprintln(stderr, "slotlint: run slotlint inside a Go module (a directory with go.mod, or below one) with package patterns such as ./...")
		return nil, exitNoLoad
	}
	if len(pkgs) == 0 {
		fmt.Fprintf(stderr, "slotlint: %s matched no packages\n", strings.Join(patterns, " "))
		return nil, exitNoLoad
	}
	broken, listErrors := printLoadErrors(pkgs, stderr)
	switch {
	case broken == 0:
		return pkgs, exitClean
	case listErrors:
		fmt.Fprintln(stderr, "slotlint: check the package patterns: slotlint runs inside a Go module (a directory with go.mod, or below one) on patterns such as ./... or ./cmd/app")
	case broken == 1:
		fmt.Fprintln(stderr, "slotlint: 1 package does not compile, so neither it nor what imports it was analyzed: fix the errors above (go build shows the same) and run slotlint again")
	default:
		fmt.Fprintf(stderr, "slotlint: %d packages do not compile, so neither they nor what imports them were analyzed: fix the errors above (go build shows the same) and run slotlint again\n", broken)
	}
	return pkgs, exitNoLoad
}

// printLoadErrors prints each distinct error of the packages and their
// dependencies once and returns how many packages have errors, and
// whether any is the go command's (a pattern that matches no directory,
// no module). A package and its test variant share files and so errors.
func printLoadErrors(pkgs []*packages.Package, stderr io.Writer) (int, bool) {
	listErrors := false
	seen := map[string]bool{}
	broken := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			broken[p.PkgPath] = true
			listErrors = listErrors || e.Kind == packages.ListError
			msg := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				msg = e.Pos + ": " + msg
			}
			if !seen[msg] {
				seen[msg] = true
				fmt.Fprintln(stderr, msg)
			}
		}
		if p.Module != nil && p.Module.Error != nil {
			msg := p.Module.Path + ": " + p.Module.Error.Err
			if !seen[msg] {
				seen[msg] = true
				fmt.Fprintln(stderr, msg)
			}
		}
	})
	return len(broken), listErrors
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
