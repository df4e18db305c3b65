package analyzer_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// clientModuleDownloads remembers, per test module, the result of
// downloading its requirements, so each module is fetched once per run.
var clientModuleDownloads sync.Map // dir -> func() error

// clientModule returns the directory of the client test module name under
// testdata/clients, with its requirements in the module cache.
// analysistest loads packages with GOPROXY=off, so on a machine whose
// module cache has never seen rueidis or go-redis v8 the modules would
// not resolve; the main module's own requirements are fetched by go test.
func clientModule(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join("testdata", "clients", name)
	download, _ := clientModuleDownloads.LoadOrStore(dir, sync.OnceValue(func() error {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			return &downloadError{dir: dir, err: err, out: out}
		}
		return nil
	}))
	if err := download.(func() error)(); err != nil {
		t.Fatal(err)
	}
	return dir
}

type downloadError struct {
	dir string
	err error
	out []byte
}

func (e *downloadError) Error() string {
	return "go mod download in " + e.dir + ": " + e.err.Error() + "\n" + string(e.out)
}
