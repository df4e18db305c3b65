package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/slotlint/slotlint/analyzer"
)

// runAnalyzer is the default mode: the Go analyzers over packages, as a
// multichecker (slotlint [-json|-fix|-diff|-test] [-slotlint.FLAG] ./...),
// or with -sarif through the checker driver (sarif.go).
// The same entry point serves go vet -vettool: multichecker answers vet's
// -V=full and -flags queries and runs one package from vet's .cfg file.
//
// multichecker reads the process's own arguments and exits with its status
// (1 on a failure, 3 when it reports findings), so args, stdin and the
// writers are those of the process; run only gets here when no subcommand
// matched os.Args[1]. -sarif is slotlint's own flag: it is taken out of the
// arguments before multichecker parses them, in every form the flag
// package accepts (-sarif, -sarif=true, -sarif=false, --sarif=0, ...).
func runAnalyzer(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	sarif, rest, found, err := takeSARIF(args)
	if err != nil {
		fmt.Fprintf(stderr, "slotlint: %v\n", err)
		return 2
	}
	if sarif {
		return runAnalyzerSARIF(rest, stdout, stderr) // sarif.go
	}
	if found {
		os.Args = append([]string{os.Args[0]}, rest...)
	}
	multichecker.Main(analyzer.Analyzers()...)
	return 0 // not reached: Main exits
}

// valueFlags are the analyzer mode's flags that take a value, so that
// "-name value" (without '=') consumes the next argument: multichecker's
// own and the analyzers' non-boolean flags.
func valueFlags() map[string]bool {
	names := map[string]bool{"c": true, "debug": true, "cpuprofile": true, "memprofile": true, "trace": true, "tags": true}
	for _, a := range analyzer.Analyzers() {
		a.Flags.VisitAll(func(f *flag.Flag) {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				names[a.Name+"."+f.Name] = true
			}
		})
	}
	return names
}

// takeSARIF removes every -sarif flag from the flags that precede the
// first package pattern and reports the value of the last one, parsed as
// the flag package parses a boolean; found is whether there was any.
func takeSARIF(args []string) (sarif bool, rest []string, found bool, err error) {
	values := valueFlags()
	rest = make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			return sarif, append(rest, args[i:]...), found, nil
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		name, value, hasValue := strings.Cut(name, "=")
		if name != "sarif" {
			rest = append(rest, a)
			if values[name] && !hasValue && i+1 < len(args) {
				i++
				rest = append(rest, args[i])
			}
			continue
		}
		found, sarif = true, true
		if hasValue {
			if sarif, err = strconv.ParseBool(value); err != nil {
				return false, nil, true, fmt.Errorf("invalid boolean value %q for -sarif", value)
			}
		}
	}
	return sarif, rest, found, nil
}
