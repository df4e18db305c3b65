// Package files reads a list of files the way slotlint's lua mode does
// (one reused buffer per worker, the system calls directly, workers taking
// the next file from a shared counter), for the programs and benchmarks
// that measure what reading, or reading and parsing, costs without any
// checking.
package files

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
)

// ForEach reads every file of paths with workers goroutines (0: one per
// CPU). Each worker calls newWorker once and then the function it returns
// with the text of each file it reads, valid only during the call.
// ForEach returns the bytes read and the first error reading or a
// worker's function gave.
func ForEach(paths []string, workers int, newWorker func() func(src []byte) error) (int64, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(min(workers, len(paths)), 1)
	var (
		next  atomic.Int64
		total atomic.Int64
		mu    sync.Mutex
		first error
	)
	work := func() {
		fn := newWorker()
		buf := make([]byte, 0, 16<<10)
		for {
			i := int(next.Add(1) - 1)
			if i >= len(paths) {
				return
			}
			src, err := read(paths[i], buf[:0])
			if err == nil {
				buf = src
				total.Add(int64(len(src)))
				err = fn(src)
			}
			if err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return total.Load(), first
}

// read reads the file at path into buf, growing it as needed.
func read(path string, buf []byte) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer syscall.Close(fd)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}
