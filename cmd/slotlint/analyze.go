package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/analyzer/config"
)

// Exit statuses of the analyzer mode (docs/output-formats.md).
const (
	exitClean    = 0 // no findings (and always with -json or -sarif when analysis ran)
	exitNoLoad   = 1 // packages could not be loaded or analyzed
	exitUsage    = 2 // bad flags or arguments
	exitFindings = 3 // findings reported
)

// analyzeFlags are the analyzer mode's settings.
type analyzeFlags struct {
	json, sarif, fix, diff, tests bool
}

// newAnalyzeFlagSet declares the analyzer mode's flags: the output flags,
// then the rule flags of the settings analyzer (-slotlint.NAME).
func newAnalyzeFlagSet(stderr io.Writer) (*flag.FlagSet, *analyzeFlags) {
	f := new(analyzeFlags)
	fs := flag.NewFlagSet("slotlint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&f.json, "json", false, "print findings as JSON (the go/analysis shape; category is the rule ID)")
	fs.BoolVar(&f.sarif, "sarif", false, "print findings as SARIF 2.1.0")
	fs.BoolVar(&f.fix, "fix", false, "apply the suggested fixes to the files")
	fs.BoolVar(&f.diff, "diff", false, "print the suggested fixes as a diff and change no file")
	fs.BoolVar(&f.tests, "test", true, "also analyze test files")
	config.Analyzer.Flags.VisitAll(func(fl *flag.Flag) {
		fs.Var(fl.Value, config.Analyzer.Name+"."+fl.Name, fl.Usage)
	})
	fs.Usage = func() { usage(stderr) }
	return fs, f
}

// runAnalyzer is the default mode: the Go analyzers over packages
// (slotlint [-json|-sarif|-fix|-diff|-test] [-slotlint.FLAG] ./...),
// through go/packages and the checker driver. go vet -vettool runs the
// same binary with its own protocol (-V=full, -flags, a .cfg file per
// package): that goes to the unitchecker (vet.go).
func runAnalyzer(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if isVetProtocol(args) {
		return runVet(args, stdout) // vet.go
	}
	fs, f := newAnalyzeFlagSet(stderr)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if f.json && f.sarif {
		fmt.Fprintln(stderr, "slotlint: -json and -sarif are two output formats: choose one")
		return exitUsage
	}
	if (f.fix || f.diff) && (f.json || f.sarif) {
		fmt.Fprintln(stderr, "slotlint: -fix and -diff change or show files: not with -json or -sarif")
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "slotlint: no packages named: try 'slotlint ./...' (or 'slotlint help')")
		return exitUsage
	}
	if f.sarif {
		return runAnalyzerSARIF(fs.Args(), f.tests, stdout, stderr)
	}
	pkgs, status := loadPackages(fs.Args(), f.tests, stderr) // load.go
	if pkgs == nil {
		return status
	}
	graph, err := checker.Analyze(analyzer.Analyzers(), pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "slotlint: %v\n", err)
		return exitNoLoad
	}
	if analysisFailed(graph, stderr) {
		status = exitNoLoad
	}
	switch {
	case f.json:
		explainLoadFailures(graph)
		if err := graph.PrintJSON(stdout); err != nil {
			fmt.Fprintf(stderr, "slotlint: %v\n", err)
			return exitNoLoad
		}
		return status
	case f.fix || f.diff:
		if err := applyFixes(graph, !f.diff, stdout, stderr); err != nil { // fix.go
			fmt.Fprintf(stderr, "slotlint: %v\n", err)
			return exitNoLoad
		}
		return status
	}
	found := rootFindings(graph)
	out := bufio.NewWriter(stdout)
	for _, d := range found {
		fmt.Fprintln(out, d.text())
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "slotlint: %v\n", err)
		return exitNoLoad
	}
	if status == exitClean && len(found) > 0 {
		return exitFindings
	}
	return status
}

// analysisFailed prints the errors of analyses that failed for a reason
// other than their package's load errors (printed once by loadPackages):
// "analysis skipped due to errors in package" and failed prerequisites
// are those errors again, once per analyzer.
func analysisFailed(graph *checker.Graph, stderr io.Writer) bool {
	failed := false
	seen := map[string]bool{}
	for act := range graph.All() {
		if act.Err == nil || broken(act.Package) || dependsOnBroken(act) {
			continue
		}
		msg := act.Err.Error()
		if !seen[msg] {
			seen[msg] = true
			fmt.Fprintf(stderr, "slotlint: %s: %v\n", act.Package.PkgPath, act.Err)
		}
		failed = true
	}
	return failed
}

// explainLoadFailures rewrites, for -json, the errors of the analyses
// that failed because a package does not compile: checker calls them
// "analysis skipped due to errors in package" and "failed prerequisites:"
// followed by the internal analyzers in between. A root analysis gets the
// cause instead, the first error of the package that does not compile,
// with its position; the others, analyzers the user did not ask for and
// the analyses of dependencies, print no error of their own.
func explainLoadFailures(graph *checker.Graph) {
	cause := map[*checker.Action]error{}
	for act := range graph.All() {
		if act.Err == nil || !broken(act.Package) && !dependsOnBroken(act) {
			continue
		}
		cause[act] = nil
		if act.IsRoot {
			cause[act] = loadCause(act)
		}
	}
	for act, err := range cause {
		act.Err = err
	}
}

// loadCause is why act could not run: the first error of its package, or
// of a package it depends on that does not compile.
func loadCause(act *checker.Action) error {
	if p := firstBroken(act.Package, map[*packages.Package]bool{}); p != nil {
		return compileError(p, act.Package)
	}
	for _, dep := range act.Deps {
		if dep.Err == nil || !broken(dep.Package) && !dependsOnBroken(dep) {
			continue
		}
		if p := firstBroken(dep.Package, map[*packages.Package]bool{}); p != nil {
			return compileError(p, act.Package)
		}
	}
	return act.Err
}

// broken reports whether a package, or one it imports, does not compile.
func broken(p *packages.Package) bool { return len(p.Errors) > 0 || p.IllTyped }

// firstBroken is p, or the first package in p's imports (in import path
// order, depth first) with errors of its own; nil when none has.
func firstBroken(p *packages.Package, seen map[*packages.Package]bool) *packages.Package {
	if seen[p] || !broken(p) {
		return nil
	}
	seen[p] = true
	if len(p.Errors) > 0 {
		return p
	}
	for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
		if q := firstBroken(p.Imports[path], seen); q != nil {
			return q
		}
	}
	return nil
}

// compileError names the first error of p, which does not compile, as the
// reason the analysis of from failed.
func compileError(p, from *packages.Package) error {
	msg := p.Errors[0].Error()
	if n := len(p.Errors) - 1; n == 1 {
		msg += " (and 1 more error)"
	} else if n > 1 {
		msg += fmt.Sprintf(" (and %d more errors)", n)
	}
	if p != from {
		msg = "imports " + p.PkgPath + ", which does not compile: " + msg
	}
	return errors.New(msg)
}

// dependsOnBroken reports whether an action failed because an action it
// needs failed on a package that does not compile.
func dependsOnBroken(act *checker.Action) bool {
	for _, dep := range act.Deps {
		if dep.Err != nil && (broken(dep.Package) || dependsOnBroken(dep)) {
			return true
		}
	}
	return false
}

// goDiagnostic is one finding of the root actions, placed.
type goDiagnostic struct {
	posn    string
	file    string
	line    int
	col     int
	rule    string
	message string
}

// text is the finding's line: "file:line:col: SL1002 message", the rule ID
// where a suppression comment needs it, as the Lua mode prints.
func (d goDiagnostic) text() string {
	return fmt.Sprintf("%s: %s %s", d.posn, d.rule, d.message)
}

// rootFindings are the findings of the root actions, each once (a package
// and its test variant share files), in file, line, column order.
func rootFindings(graph *checker.Graph) []goDiagnostic {
	var out []goDiagnostic
	seen := map[string]bool{}
	for _, act := range graph.Roots {
		for _, d := range act.Diagnostics {
			p := act.Package.Fset.Position(d.Pos)
			g := goDiagnostic{posn: p.String(), file: p.Filename, line: p.Line, col: p.Column, rule: d.Category, message: d.Message}
			if k := g.text(); !seen[k] {
				seen[k] = true
				out = append(out, g)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b goDiagnostic) int {
		if c := strings.Compare(a.file, b.file); c != 0 {
			return c
		}
		if a.line != b.line {
			return a.line - b.line
		}
		return a.col - b.col
	})
	return out
}

// withRuleIDs returns the suite with each rule analyzer's messages
// starting with the rule ID, for go vet's text output, which prints only
// "file:line:col: message". The copies keep their names, flags and
// requirements; no analyzer requires a rule analyzer or exports facts
// from one, so they replace the originals cleanly.
func withRuleIDs(list []*analysis.Analyzer) []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, 0, len(list))
	for _, a := range list {
		if a == config.Analyzer || len(a.FactTypes) > 0 {
			out = append(out, a)
			continue
		}
		copied := *a
		run := a.Run
		copied.Run = func(pass *analysis.Pass) (any, error) {
			prefixed := *pass
			report := pass.Report
			prefixed.Report = func(d analysis.Diagnostic) {
				if d.Category != "" {
					d.Message = d.Category + " " + d.Message
				}
				report(d)
			}
			return run(&prefixed)
		}
		out = append(out, &copied)
	}
	return out
}

// runMultichecker hands the process's arguments to multichecker (go vet's
// -flags query and its per-package .cfg runs); it exits.
func runMultichecker(args []string, analyzers []*analysis.Analyzer) {
	os.Args = append([]string{os.Args[0]}, args...)
	multichecker.Main(analyzers...)
}

// parseFlags parses the flags of a mode that runs the rules, and checks the
// rule flags (-slotlint.…) once, before any package is loaded. When it
// returns false the mode ends with code: -help is a clean exit, anything
// else a usage error, said on stderr.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitClean, false
		}
		return exitUsage, false
	}
	if _, err := config.New(config.Current); err != nil {
		var unknown *config.RuleError
		if errors.As(err, &unknown) {
			unknown.Setting = "-slotlint." + unknown.Setting
		}
		fmt.Fprintln(stderr, err)
		return exitUsage, false
	}
	return 0, true
}
