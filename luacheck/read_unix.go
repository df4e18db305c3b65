//go:build unix

package luacheck

import (
	"fmt"
	"os"
	"syscall"
)

// readLimited reads a file into buf, but no more than one byte past limit:
// Check reports oversized scripts itself and needs only to know. It uses
// the system calls directly: os.Open also registers every descriptor with
// the runtime's poller (four fcntl calls and a failing epoll_ctl for a
// regular file), which is more system calls than reading a small script
// takes. Errors read as os.Open's and File.Read's would.
func readLimited(path string, limit int, buf []byte) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf = buf[:0]
	if cap(buf) == 0 {
		buf = make([]byte, 0, 16<<10)
	}
	for len(buf) <= limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):min(cap(buf), limit+1)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, &os.PathError{Op: "read", Path: path, Err: err})
		}
		if n <= 0 {
			break
		}
		buf = buf[:len(buf)+n]
	}
	return buf, nil
}
