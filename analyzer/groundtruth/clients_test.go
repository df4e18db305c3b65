package groundtruth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/internal/redistest"
)

// clientModules hold the ground-truth cases of other clients, each in a
// test module pinned to its client, so the main module does not depend on
// them: their groundtruth package has labelled cases and a test that runs
// them on the cluster (valkey-go's are rueidis's, renamed: valkeyModule).
// That the analyzers report exactly each label is checked by the
// analyzer's TestClients, on the load of the client module it makes for
// the rules' cases.
var clientModules = []string{"redigo", "goredisv8", "rueidis", "valkey"}

func clientModule(t *testing.T, name string) string {
	dir := filepath.Join("..", "testdata", "clients", name)
	if name == "valkey" {
		return valkeyModule(t, dir)
	}
	return dir
}

// valkeyModule is the valkey-go test module with its ground truth: the
// rueidis cases and their cluster test, renamed, written into a copy of
// the module so that the two clients' cases cannot drift apart.
func valkeyModule(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(dir, "..", "rueidis", "groundtruth")
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rueidis cases in %s: %v", src, err)
	}
	if err := os.Mkdir(filepath.Join(out, "groundtruth"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		renamed := ValkeyFromRueidis.Replace(string(data))
		if err := os.WriteFile(filepath.Join(out, "groundtruth", filepath.Base(f)), []byte(renamed), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// moduleEnv reads only the test module's own go.mod.
func moduleEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=")
}

// TestClientCasesOnCluster runs each client module's cluster test against
// the harness cluster: Redis must agree with every label (see the
// groundtruth_test.go of each module for what agreeing means there). The
// modules run side by side, each under a key prefix of its own: much of
// each run waits on the cluster (goredisv8's client asks COMMAND before
// every command).
func TestClientCasesOnCluster(t *testing.T) {
	addrs := redistest.ClusterAddrs(t)
	for _, mod := range clientModules {
		t.Run(mod, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command("go", "test", "-count=1", "-v", "./groundtruth")
			cmd.Dir = clientModule(t, mod)
			cmd.Env = append(moduleEnv(), redistest.EnvCluster+"="+strings.Join(addrs, ","),
				"SLOTLINT_GT_PREFIX="+redistest.Prefix(t))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if strings.Contains(string(out), "--- SKIP") || !strings.Contains(string(out), "--- PASS: TestClusterMatchesLabels") {
				t.Fatalf("the cases did not run on the cluster:\n%s", out)
			}
			for _, line := range strings.Split(string(out), "\n") {
				if strings.Contains(line, "CROSSSLOT for") || strings.Contains(line, "without a cross-slot error") {
					t.Log(strings.TrimSpace(line))
				}
			}
		})
	}
}
