package keyexpr

import (
	"os"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestStandardLibraryExportsNoFacts: the standard library's string
// functions get no key facts in any driver, so go vet's shortcut for them
// (an empty facts file) gives the same results as the checker, while a
// module's builders keep theirs.
func TestStandardLibraryExportsNoFacts(t *testing.T) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: "../../testdata", Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOPROXY=off")}
	// net has JoinHostPort and strconv has NumError.Error: both build
	// strings the summary would describe.
	pkgs, err := packages.Load(cfg, "net", "strconv", "example.com/slt/facts/keys")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("packages have errors")
	}
	g, err := checker.Analyze([]*analysis.Analyzer{Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	facts := map[string]int{}
	for act := range g.All() {
		if act.Analyzer != Analyzer || act.Err != nil {
			continue
		}
		for _, f := range act.AllObjectFacts() {
			if f.Object.Pkg() == act.Package.Types {
				facts[act.Package.PkgPath]++
			}
		}
	}
	for _, std := range []string{"net", "strconv", "fmt", "errors"} {
		if n := facts[std]; n != 0 {
			t.Errorf("%s exports %d key facts, want none", std, n)
		}
	}
	if facts["example.com/slt/facts/keys"] == 0 {
		t.Errorf("the module's key builders export no facts: %v", facts)
	}
}
