//go:build !unix

package luacheck

import (
	"fmt"
	"io"
	"os"
)

// readLimited reads a file into buf, but no more than one byte past limit:
// Check reports oversized scripts itself and needs only to know.
func readLimited(path string, limit int, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf = buf[:0]
	if cap(buf) == 0 {
		buf = make([]byte, 0, 16<<10)
	}
	for len(buf) <= limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):min(cap(buf), limit+1)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
	}
	return buf, nil
}
