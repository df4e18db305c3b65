package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/slotlint/slotlint/slot"
)

func init() {
	register(subcommand{
		usage:   "[-tag] KEY...|-",
		name:    "keyslot",
		summary: "print each key's cluster hash slot, like CLUSTER KEYSLOT, offline",
		run:     runKeyslot,
	})
}

// maxStdinKey bounds one line read from standard input; Redis itself caps
// keys at 512 MB, but a key line this long is a mistake, not a key.
const maxStdinKey = 1 << 20

func runKeyslot(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("keyslot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	withTag := fs.Bool("tag", false, "add the hash tag as a third column (empty when the key has none)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: slotlint keyslot [-tag] KEY... | -")
		fmt.Fprintln(stderr, "prints SLOT<TAB>KEY per key in argument order; '-' reads keys from standard input, one per line.")
		fmt.Fprintln(stderr, "keys with control characters or invalid UTF-8 are printed Go-quoted.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}

	out := bufio.NewWriter(stdout)
	defer out.Flush()
	print := func(key string) {
		out.WriteString(strconv.Itoa(slot.Slot(key)))
		out.WriteByte('\t')
		out.WriteString(printable(key))
		if *withTag {
			tag, _ := slot.Tag(key)
			out.WriteByte('\t')
			out.WriteString(printable(tag))
		}
		out.WriteByte('\n')
	}
	for _, arg := range fs.Args() {
		if arg != "-" {
			print(arg)
			continue
		}
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 64*1024), maxStdinKey)
		for sc.Scan() {
			print(strings.TrimSuffix(sc.Text(), "\r"))
		}
		if err := sc.Err(); err != nil {
			out.Flush()
			fmt.Fprintf(stderr, "slotlint keyslot: reading standard input: %v\n", err)
			return 2
		}
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "slotlint keyslot: %v\n", err)
		return 2
	}
	return 0
}

// printable returns key as is unless it would break the tab-separated line
// format or the terminal, in which case it is Go-quoted.
func printable(key string) string {
	if !utf8.ValidString(key) || strings.HasPrefix(key, `"`) {
		return strconv.Quote(key)
	}
	for _, r := range key {
		if unicode.IsControl(r) {
			return strconv.Quote(key)
		}
	}
	return key
}
