// Command parsefiles reads the Lua files named on its command line and
// parses each with gopher-lua's parser, as slotlint's lua mode does, and
// exits: the least a checker on that parser costs as a whole process.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	luacheckbench "github.com/slotlint/slotlint/bench/luacheck"
)

func main() {
	// slotlint lua's setting: its heap is collected as rarely.
	debug.SetGCPercent(400)
	if _, _, err := luacheckbench.ReadAndParse(os.Args[1:], 0); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
