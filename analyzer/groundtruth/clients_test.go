package groundtruth

import (
	"go/ast"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/internal/redistest"
)

// clientModules hold the ground-truth cases of other clients, each in a
// test module pinned to its client, so the main module does not depend on
// them: their groundtruth package has labelled cases and a test that runs
// them on the cluster.
var clientModules = []string{"redigo", "goredisv8", "rueidis", "valkey"}

func clientModule(name string) string {
	return filepath.Join("..", "testdata", "clients", name)
}

// moduleEnv reads only the test module's own go.mod.
func moduleEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=")
}

// TestClientCasesMatchLabels: on each client's cases, the analyzers report
// exactly each case's label.
func TestClientCasesMatchLabels(t *testing.T) {
	for _, mod := range clientModules {
		t.Run(mod, func(t *testing.T) {
			cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: clientModule(mod), Env: moduleEnv()}
			pkgs, err := packages.Load(cfg, "./groundtruth")
			if err != nil {
				t.Fatal(err)
			}
			if packages.PrintErrors(pkgs) > 0 || len(pkgs) != 1 {
				t.Fatal("the cases do not load")
			}
			label := map[string]string{}
			funcs := map[string][2]token.Pos{}
			for _, f := range pkgs[0].Syntax {
				for _, d := range f.Decls {
					fd, ok := d.(*ast.FuncDecl)
					if !ok || fd.Doc == nil {
						continue
					}
					if l := strings.Fields(fd.Doc.Text())[0]; l == "clean" || slotRules[l] {
						label[fd.Name.Name] = l
						funcs[fd.Name.Name] = [2]token.Pos{fd.Pos(), fd.End()}
					}
				}
			}
			if len(funcs) < 10 {
				t.Fatalf("only %d labelled cases", len(funcs))
			}
			reported := slotFindings(t, pkgs, funcs)
			for name, want := range label {
				checkLabel(t, name, want, reported[name])
			}
		})
	}
}

// TestClientCasesOnCluster runs each client module's cluster test against
// the harness cluster: Redis must agree with every label (see the
// groundtruth_test.go of each module for what agreeing means there).
func TestClientCasesOnCluster(t *testing.T) {
	addrs := redistest.ClusterAddrs(t)
	for _, mod := range clientModules {
		t.Run(mod, func(t *testing.T) {
			cmd := exec.Command("go", "test", "-count=1", "-v", "./groundtruth")
			cmd.Dir = clientModule(mod)
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
