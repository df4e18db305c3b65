package luacheck

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// FileResult is the outcome of checking one file.
type FileResult struct {
	Path     string
	Findings []Finding
	Err      error // the file could not be read
}

// CheckFiles reads and checks files with up to workers goroutines (0 means
// one per CPU) and returns the results in the order of paths. optsFor
// gives each file's options; its Filename is set to the path. The src
// passed to optsFor is only valid during the call: each worker reads every
// file into the same buffer.
func CheckFiles(paths []string, workers int, optsFor func(path string, src []byte) Options) []FileResult {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(min(workers, len(paths)), 1)
	results := make([]FileResult, len(paths))
	// Workers take the next file from a shared counter rather than a
	// channel: a channel hand-off per file costs goroutine switches and
	// scheduler spinning comparable to checking a small script.
	var next atomic.Int64
	work := func() {
		var buf []byte
		for {
			i := int(next.Add(1) - 1)
			if i >= len(paths) {
				return
			}
			path := paths[i]
			results[i].Path = path
			src, err := readLimited(path, DefaultMaxBytes, buf[:0])
			if err != nil {
				results[i].Err = err
				continue
			}
			buf = src
			opts := optsFor(path, src)
			opts.Filename = path
			results[i].Findings = Check(src, opts)
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return results
}
