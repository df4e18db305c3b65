package luacheck

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
)

// FileResult is the outcome of checking one file.
type FileResult struct {
	Path     string
	Findings []Finding
	Err      error // the file could not be read
}

// CheckFiles reads and checks files with up to workers goroutines (0 means
// one per CPU) and returns the results in the order of paths. optsFor
// gives each file's options; its Filename is set to the path.
func CheckFiles(paths []string, workers int, optsFor func(path string, src []byte) Options) []FileResult {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(paths))
	results := make([]FileResult, len(paths))
	check := func(i int) {
		path := paths[i]
		results[i].Path = path
		src, err := readLimited(path, DefaultMaxBytes)
		if err != nil {
			results[i].Err = err
			return
		}
		opts := optsFor(path, src)
		opts.Filename = path
		results[i].Findings = Check(src, opts)
	}
	if workers <= 1 {
		for i := range paths {
			check(i)
		}
		return results
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				check(i)
			}
		})
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// readLimited reads a file, but no more than one byte past limit: Check
// reports oversized scripts itself and needs only to know.
func readLimited(path string, limit int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return src, nil
}
