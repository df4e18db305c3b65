package luacheckbench

import (
	"bufio"
	"bytes"
	"sync/atomic"

	"github.com/yuin/gopher-lua/parse"

	"github.com/slotlint/slotlint/bench/luacheck/internal/files"
)

// ReadAndParse reads every file of paths and parses it with gopher-lua's
// parser, with workers goroutines (0: one per CPU), and does nothing else:
// a checker on this parser that checked nothing would take this long. It
// returns the bytes read and how many files did not parse (a template or
// a file in another Lua dialect is parsed as far as it goes, as slotlint
// parses it).
func ReadAndParse(paths []string, workers int) (int64, int, error) {
	var failed atomic.Int64
	n, err := files.ForEach(paths, workers, func() func([]byte) error {
		// gopher-lua wraps its input in a 4 KiB bufio.Reader unless it
		// is one already: one per worker, as slotlint keeps them in a
		// pool.
		br := bufio.NewReaderSize(nil, 4096)
		return func(src []byte) error {
			br.Reset(bytes.NewReader(src))
			if _, err := parse.Parse(br, "x"); err != nil {
				failed.Add(1)
			}
			return nil
		}
	})
	return n, int(failed.Load()), err
}
