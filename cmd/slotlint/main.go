// Command slotlint finds Redis Cluster key-design bugs in Go code that uses
// go-redis, redigo, rueidis or valkey-go, and in Redis Lua scripts.
//
// Usage:
//
//	slotlint [flags] PACKAGES...     analyze Go packages (the default mode)
//	slotlint lua [flags] FILE|DIR... check Lua scripts and Functions libraries
//	slotlint keyslot [-tag] KEY...   print each key's cluster hash slot
//	slotlint version                 print the version
//	slotlint help [RULE]             show the help, or a rule's documentation
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/slotlint/slotlint/analyzer"
	ruledocs "github.com/slotlint/slotlint/docs/rules"
	"github.com/slotlint/slotlint/internal/version"
	"github.com/slotlint/slotlint/internal/vetx"
)

// subcommand is one mode of the binary; the Go analyzer is the default.
type subcommand struct {
	name    string
	usage   string // the arguments, for the help
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var subcommands []subcommand

func register(c subcommand) { subcommands = append(subcommands, c) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		for _, c := range subcommands {
			if args[0] == c.name {
				return c.run(args[1:], stdin, stdout, stderr)
			}
		}
		switch args[0] {
		case "help":
			return runHelp(args[1:], stdout, stderr)
		case "version":
			fmt.Fprintf(stdout, "slotlint %s (%s)\n", version.Read(), version.Read().GoVersion)
			return exitClean
		}
	}
	if answered, code := vetx.Answer(args, vetx.Suite{TypesOnly: analyzer.IsClientPackage, Facts: analyzer.FactAnalyzers()}); answered {
		return code
	}
	return runAnalyzer(args, stdin, stdout, stderr)
}

// runHelp prints the help, or the documentation of the rules it names.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return exitClean
	}
	docs := ruledocs.Render()
	for _, id := range args {
		doc, ok := docs[strings.ToUpper(id)+".md"]
		if !ok {
			fmt.Fprintf(stderr, "slotlint help: no rule %q (rules: %s)\n", id, ruleIDs(docs))
			return exitUsage
		}
		// The page without its "generated" comment.
		if i := bytes.Index(doc, []byte("-->\n\n")); i >= 0 {
			doc = doc[i+len("-->\n\n"):]
		}
		stdout.Write(doc)
	}
	return exitClean
}

func ruleIDs(docs map[string][]byte) string {
	var ids []string
	for name := range docs {
		if id, ok := strings.CutSuffix(name, ".md"); ok && id != "README" {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return strings.Join(ids, ",")
}

// usage is slotlint -h and slotlint help: the modes first, then the
// analyzer mode's output flags and rule flags (from its flag set, so the
// help cannot name a flag that is not there), then the exit statuses.
func usage(w io.Writer) {
	fmt.Fprintln(w, "slotlint finds Redis Cluster key-design bugs in Go code and Lua scripts.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage:")
	fmt.Fprintf(w, "  %-34s %s\n", "slotlint [flags] PACKAGES...", "analyze Go packages, e.g. slotlint ./...")
	for _, c := range subcommands {
		fmt.Fprintf(w, "  %-34s %s\n", "slotlint "+c.name+" "+c.usage, c.summary)
	}
	fmt.Fprintf(w, "  %-34s %s\n", "slotlint version", "print the version and VCS revision")
	fmt.Fprintf(w, "  %-34s %s\n", "slotlint help [RULE]", "show this help, or a rule's documentation (slotlint help SL1002)")
	fs, _ := newAnalyzeFlagSet(io.Discard)
	group := func(title string, names ...string) {
		fmt.Fprintf(w, "\n%s:\n", title)
		for _, name := range names {
			f := fs.Lookup(name)
			arg := ""
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				arg = "=IDS"
			}
			fmt.Fprintf(w, "  %-34s %s\n", "-"+name+arg, f.Usage)
		}
	}
	group("output flags", "json", "sarif", "fix", "diff")
	group("rule flags", "slotlint.disable", "slotlint.enable", "slotlint.strict", "slotlint.braces")
	group("package flags", "test")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "as a vet tool, failing when slotlint is not installed:")
	fmt.Fprintln(w, "  go vet -vettool=\"$(command -v slotlint || echo slotlint-not-installed)\" ./...")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "exit status: 0 no findings, 3 findings, 1 packages could not be loaded or analyzed,")
	fmt.Fprintln(w, "2 bad flags or arguments (-json and -sarif exit 0 with findings)")
	fmt.Fprintln(w, "run 'slotlint MODE -h' for a mode's flags")
}
