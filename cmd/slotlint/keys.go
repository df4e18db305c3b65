package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/analyzer/crossslot"
	"github.com/slotlint/slotlint/analyzer/keymap"
	"github.com/slotlint/slotlint/analyzer/scriptkeys"
	"github.com/slotlint/slotlint/analyzer/txslot"
	"github.com/slotlint/slotlint/internal/keysout"
)

func init() {
	register(subcommand{
		usage:   "[flags] PACKAGES...",
		name:    "keys",
		summary: "map the key families the code uses and which it uses together (docs/keys.md)",
		run:     runKeys,
	})
}

// keysMode is a mode of slotlint keys that adds to the static map (live
// sampling of a server): its flags join the subcommand's, and run, called
// after the map is built and before it is written, fills the map's Live
// sections when the mode's flags ask for it.
type keysMode struct {
	flags func(fs *flag.FlagSet)
	run   func(ctx context.Context, m *keymap.Map, stderr io.Writer) error
}

// keysModes are the registered modes, in registration order.
var keysModes []keysMode

// keysAnalyzers are what the map needs: the settings, the key map, and the
// rules whose findings are on joint uses, so each use carries their IDs.
func keysAnalyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{config.Analyzer, crossslot.Analyzer, txslot.Analyzer, scriptkeys.Analyzer, keymap.Analyzer}
}

type keysFlags struct {
	json, dot, tests bool
	html             string
}

func newKeysFlagSet(stderr io.Writer) (*flag.FlagSet, *keysFlags) {
	f := new(keysFlags)
	fs := flag.NewFlagSet("slotlint keys", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&f.json, "json", false, "print the map as JSON (schema in docs/keys.md)")
	fs.BoolVar(&f.dot, "dot", false, "print the map as a Graphviz graph: families as nodes, joint uses as edges")
	fs.StringVar(&f.html, "html", "", "also write the map as one self-contained HTML `file` (graph, table, search)")
	fs.BoolVar(&f.tests, "test", true, "also read test files")
	config.Analyzer.Flags.VisitAll(func(fl *flag.Flag) {
		fs.Var(fl.Value, config.Analyzer.Name+"."+fl.Name, fl.Usage)
	})
	for _, m := range keysModes {
		m.flags(fs)
	}
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: slotlint keys [flags] PACKAGES...")
		fmt.Fprintln(stderr, "maps the Redis key families the packages use, the commands, transactions and scripts")
		fmt.Fprintln(stderr, "that use them together, and the hash tag each group needs on a cluster (docs/keys.md).")
		fmt.Fprintln(stderr, "exit status: 0 map written, 1 packages could not be loaded or a -redis node failed (the map has the rest), 2 bad flags.")
		fs.PrintDefaults()
	}
	return fs, f
}

func runKeys(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs, f := newKeysFlagSet(stderr)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if f.json && f.dot {
		fmt.Fprintln(stderr, "slotlint keys: -json and -dot are two output formats: choose one")
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "slotlint keys: no packages named: try 'slotlint keys ./...'")
		return exitUsage
	}
	m, status := buildKeyMap(fs.Args(), f.tests, stderr)
	if m == nil {
		return status
	}
	for _, mode := range keysModes {
		if err := mode.run(context.Background(), m, stderr); err != nil {
			fmt.Fprintf(stderr, "slotlint keys: %v\n", err)
			status = exitNoLoad
		}
	}
	if f.html != "" {
		if err := writeFile(f.html, func(w io.Writer) error { return keysout.HTML(w, m) }); err != nil {
			fmt.Fprintf(stderr, "slotlint keys: %v\n", err)
			return exitNoLoad
		}
	}
	var err error
	switch {
	case f.json:
		err = keysout.JSON(stdout, m)
	case f.dot:
		err = keysout.Dot(stdout, m)
	default:
		err = keysout.Text(stdout, m)
	}
	if err != nil {
		fmt.Fprintf(stderr, "slotlint keys: %v\n", err)
		return exitNoLoad
	}
	return status
}

// buildKeyMap loads the packages and builds their map, with file names
// relative to the working directory. Packages that do not load are
// reported as in the analyzer mode and left out; the status says so.
func buildKeyMap(patterns []string, tests bool, stderr io.Writer) (*keymap.Map, int) {
	pkgs, status := loadPackages(patterns, tests, stderr) // load.go
	if pkgs == nil {
		return nil, status
	}
	graph, err := checker.Analyze(keysAnalyzers(), pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "slotlint keys: %v\n", err)
		return nil, exitNoLoad
	}
	if analysisFailed(graph, stderr) {
		status = exitNoLoad
	}
	m := keymap.FromGraph(graph)
	if wd, err := os.Getwd(); err == nil {
		m.RelativeTo(wd)
	}
	return m, status
}

// writeFile writes a file through write, reporting the first error of
// writing or closing.
func writeFile(name string, write func(io.Writer) error) error {
	out, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
