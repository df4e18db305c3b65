package luacheck

import (
	"bytes"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// FileResult is the outcome of checking one file.
type FileResult struct {
	Path     string
	Findings []Finding
	Err      error // the file could not be read
	// header: the names the file declares, when it is a header
	// (headerNames).
	header []string
}

// CheckFiles reads and checks files with up to workers goroutines (0 means
// one per CPU) and returns the results in the order of paths. A finding in
// an included file is reported once, by that file if it is checked too. optsFor
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
	files := &fileCache{}
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
			opts.files = files
			results[i].Findings, results[i].header = check(src, opts)
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	dropRepeats(results)
	dropHeaderNames(results)
	return results
}

// dropRepeats removes a finding that one file's check places in another
// file (code it includes) when that other file's own check, or an earlier
// file's, already gave the same finding: on BullMQ's commands, helpers
// included by several scripts would otherwise print the same line once
// per includer.
//
// A place is its file, as cleaned ("./a/b.lua" and an include's "a/b.lua"
// are one file), line, column and rule: includers that call a helper
// with different arguments describe its key differently, but it is one
// finding there. A finding that names others of its cause (LUA201) is a
// repeat when every place it names is already printed, and, unless its
// cause is a prefix the caller passes, printed for a cause of its kind.
func dropRepeats(results []FileResult) {
	type place struct {
		file         string
		line, column int
		rule         string
	}
	at := func(f Finding, p Position) place {
		return place{filepath.Clean(p.File), p.Line, p.Column, f.Rule}
	}
	// seen: the place is printed; strong: by a finding that does not
	// stand for a prefix the caller passes (LUA201's ARGV[n] causes).
	seen, strong := map[place]bool{}, map[place]bool{}
	see := func(f Finding) {
		for _, p := range append([]Position{f.Pos}, f.others...) {
			seen[at(f, p)] = true
			if !f.prefix {
				strong[at(f, p)] = true
			}
		}
	}
	// A LUA201 cause in a helper (its keys built from ARGV[1]) is one
	// finding for the run, whichever includers reach which of its keys.
	type causeKey struct{ file, rule, cause string }
	type index struct{ result, finding int }
	causes := map[causeKey]index{}
	for i, r := range results {
		for j, f := range r.Findings {
			if f.Pos.File == r.Path {
				see(f)
				if f.cause != "" {
					causes[causeKey{filepath.Clean(f.Pos.File), f.Rule, f.cause}] = index{i, j}
				}
			}
		}
	}
	// Merging writes into findings already kept: decide first, then
	// compact, so that indexes stay valid.
	drop := make([][]bool, len(results))
	for i := range results {
		r := &results[i]
		drop[i] = make([]bool, len(r.Findings))
		for j, f := range r.Findings {
			if f.Pos.File == r.Path {
				continue
			}
			if f.cause != "" {
				k := causeKey{filepath.Clean(f.Pos.File), f.Rule, f.cause}
				if ix, ok := causes[k]; ok {
					mergeCause(&results[ix.result].Findings[ix.finding], f)
					see(f)
					drop[i][j] = true
					continue
				}
				causes[k] = index{i, j}
			}
			// A helper's place reached by one includer with the tagged
			// prefix it passes, and by another with a key read from
			// stored data, has two causes: the second is not a repeat.
			covered := true
			for _, p := range append([]Position{f.Pos}, f.others...) {
				covered = covered && seen[at(f, p)] && (f.prefix || strong[at(f, p)])
			}
			if covered {
				drop[i][j] = true
				continue
			}
			see(f)
		}
	}
	for i := range results {
		r := &results[i]
		kept := r.Findings[:0]
		for j, f := range r.Findings {
			if !drop[i][j] {
				kept = append(kept, f)
			}
		}
		r.Findings = kept
	}
}

// mergeCause adds the places of other, a finding of the same cause in the
// same file, to f, and names their lines in f's message.
func mergeCause(f *Finding, other Finding) {
	for _, p := range append([]Position{other.Pos}, other.others...) {
		if p != f.Pos && !slices.Contains(f.others, p) {
			f.others = append(f.others, p)
		}
	}
	var lines []int
	for _, p := range f.others {
		if p.Line != f.Pos.Line && !slices.Contains(lines, p.Line) {
			lines = append(lines, p.Line)
		}
	}
	slices.Sort(lines)
	f.groupUndeclared(lines)
}

// fileCache holds the included files one run has read, with the error
// reading gave, so each is read once however many scripts include it. A
// nil *fileCache reads every time. It is safe for concurrent use; the
// bytes it returns are shared and must not be modified.
type fileCache struct {
	mu    sync.Mutex
	files map[string]cachedFile
	// pieces are the parsed pieces of assembled scripts (splice.go).
	pieces map[pieceKey]*piece
}

type cachedFile struct {
	src []byte
	err error
}

var scratchPool = sync.Pool{New: func() any { return new([]byte) }}

func (c *fileCache) read(path string) ([]byte, error) {
	if c == nil {
		return readLimited(path, DefaultMaxBytes, nil)
	}
	c.mu.Lock()
	f, ok := c.files[path]
	c.mu.Unlock()
	if ok {
		return f.src, f.err
	}
	// Two workers may read the same file at once: both get the same text.
	// The read buffer is at least 16 KiB and serves the next read; keep
	// only the text.
	scratch := scratchPool.Get().(*[]byte)
	buf, err := readLimited(path, DefaultMaxBytes, *scratch)
	if cap(buf) > cap(*scratch) {
		*scratch = buf[:0]
	}
	src := bytes.Clone(buf)
	scratchPool.Put(scratch)
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]cachedFile{}
	}
	c.files[path] = cachedFile{src, err}
	c.mu.Unlock()
	return src, err
}
