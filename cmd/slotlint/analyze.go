package main

import (
	"io"

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
// matched os.Args[1].
func runAnalyzer(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if wantsSARIF(args) {
		return runAnalyzerSARIF(args, stdout, stderr) // sarif.go
	}
	multichecker.Main(analyzer.Analyzers()...)
	return 0 // not reached: Main exits
}
