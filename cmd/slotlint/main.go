// Command slotlint finds Redis Cluster key-design bugs in Go code that uses
// go-redis, redigo, rueidis or valkey-go, and in Redis Lua scripts.
//
// Usage:
//
//	slotlint [flags] PACKAGES...     analyze Go packages (the default mode)
//	slotlint keyslot [-tag] KEY...   print each key's cluster hash slot
//	slotlint help                    show this help
package main

import (
	"fmt"
	"io"
	"os"
)

// subcommand is one mode of the binary; the Go analyzer is the default.
type subcommand struct {
	name    string
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
		if args[0] == "help" {
			usage(stdout)
			return 0
		}
	}
	if answered, code := answerVetx(args); answered { // vetx.go
		return code
	}
	return runAnalyzer(args, stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "slotlint finds Redis Cluster key-design bugs.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage:")
	fmt.Fprintln(w, "  slotlint [flags] PACKAGES...   analyze Go packages (also: go vet -vettool=$(which slotlint))")
	fmt.Fprintln(w, "                                 flags: -json, -sarif, -fix, -diff, -test, -slotlint.disable=IDS, -slotlint.enable=IDS,")
	fmt.Fprintln(w, "                                 -slotlint.braces, -slotlint.strict")
	for _, c := range subcommands {
		fmt.Fprintf(w, "  slotlint %-21s %s\n", c.name+" ...", c.summary)
	}
	fmt.Fprintln(w, "  slotlint help                  show this help")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "run 'slotlint MODE -h' for a mode's flags")
}
