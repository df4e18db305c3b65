package runtime

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayering keeps the package light for the services that import it: its
// non-test dependencies must not include the checkers' libraries.
func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"golang.org/x/tools", "github.com/yuin/gopher-lua",
			"github.com/slotlint/slotlint/analyzer", "github.com/slotlint/slotlint/luacheck",
			"github.com/slotlint/slotlint/internal"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("runtime depends on %s", dep)
			}
		}
	}
}
