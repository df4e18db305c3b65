package main

import (
	"fmt"
	"io"
)

// runAnalyzer is the default mode: the Go analyzers over packages.
func runAnalyzer(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "slotlint: the Go analyzer mode is not available in this build")
	usage(stderr)
	return 2
}
