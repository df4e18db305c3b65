package suitetest

import (
	"go/ast"
	"go/token"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Finding is one diagnostic of an analyzer on a root package.
type Finding struct {
	Analyzer *analysis.Analyzer
	Package  *packages.Package
	Posn     token.Position
	analysis.Diagnostic
}

// String is the finding as a test log line: position, rule ID, message.
func (f Finding) String() string {
	return f.Posn.String() + ": " + f.Category + ": " + f.Message
}

// Result is one run of analyzers over a program.
type Result struct {
	Program *Program
	Graph   *checker.Graph
	// Findings are the diagnostics on the root packages, in the order the
	// checker's root actions come.
	Findings []Finding
}

// Run runs the analyzers (and those they require) over every package of
// prog and fails the test if an analyzer failed on any package, its
// dependencies included, or did not run on every root package.
func Run(t testing.TB, prog *Program, analyzers ...*analysis.Analyzer) *Result {
	t.Helper()
	// SanityCheck as analysistest.Run sets it: facts must survive
	// encoding, as they must between go vet's processes.
	g, err := checker.Analyze(analyzers, prog.Packages, &checker.Options{SanityCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	res := &Result{Program: prog, Graph: g}
	for act := range g.All() {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
	}
	ran := map[*analysis.Analyzer]int{}
	for _, act := range g.Roots {
		ran[act.Analyzer]++
		for _, d := range act.Diagnostics {
			res.Findings = append(res.Findings, Finding{act.Analyzer, act.Package, act.Package.Fset.Position(d.Pos), d})
		}
	}
	for _, a := range analyzers {
		if ran[a] != len(prog.Packages) {
			t.Fatalf("analyzer %s ran on %d of %d packages", a.Name, ran[a], len(prog.Packages))
		}
	}
	return res
}

// In returns the findings on the packages in the directory rel (any
// variant), of the given analyzers, or of every analyzer if none is given.
func (r *Result) In(rel string, analyzers ...*analysis.Analyzer) []Finding {
	in := r.Program.inDir(rel)
	var out []Finding
	for _, f := range r.Findings {
		if slices.Contains(in, f.Package) && (len(analyzers) == 0 || slices.Contains(analyzers, f.Analyzer)) {
			out = append(out, f)
		}
	}
	return out
}

// Silent fails the test for every finding on the packages in the
// directories rels: clean code must stay clean.
func (r *Result) Silent(t testing.TB, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		if len(r.Program.inDir(rel)) == 0 {
			t.Fatalf("no package in %s", rel)
		}
		for _, f := range r.In(rel) {
			t.Errorf("%s: unexpected %s finding: %s", f.Posn, f.Category, f.Message)
		}
	}
}

// ByFunc returns the findings on pkg (of the given analyzers, or all)
// keyed by the name of the top-level function or method declaration that
// holds them; findings outside any function are left out.
func (r *Result) ByFunc(pkg *packages.Package, analyzers ...*analysis.Analyzer) map[string][]Finding {
	type extent struct {
		name     string
		from, to token.Pos
	}
	var funcs []extent
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				funcs = append(funcs, extent{fd.Name.Name, fd.Pos(), fd.End()})
			}
		}
	}
	out := map[string][]Finding{}
	for _, f := range r.Findings {
		if f.Package != pkg || (len(analyzers) > 0 && !slices.Contains(analyzers, f.Analyzer)) {
			continue
		}
		for _, fn := range funcs {
			if fn.from <= f.Pos && f.Pos < fn.to {
				out[fn.name] = append(out[fn.name], f)
			}
		}
	}
	return out
}

// Unique returns the findings with duplicates removed (a package loaded
// with its tests is analyzed twice, as itself and with its tests), sorted
// by their log line.
func Unique(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.String())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Wants is analysistest.Run(t, dir, a, rels...) on a shared load: it runs a
// over the packages in the directories rels (relative to dir, e.g.
// "./crossslot") and checks its findings and facts against their `// want`
// comments (CheckWants). The packages come from one load of the whole
// module in dir (./..., with tests) that every call naming the same dir
// in the test binary shares, where analysistest type-checks them and
// every dependency again in each call.
func Wants(t testing.TB, dir string, a *analysis.Analyzer, rels ...string) *Result {
	t.Helper()
	prog := Load(t, Config{Dir: dir, Patterns: []string{"./..."}, Tests: true})
	res := Run(t, prog.Only(t, rels...), a)
	res.CheckWants(t, a, rels...)
	return res
}

// Only returns the program of p's packages in the directories rels; their
// dependencies are analyzed only as far as the analyzers' facts need.
func (p *Program) Only(t testing.TB, rels ...string) *Program {
	t.Helper()
	sub := &Program{Dir: p.Dir}
	for _, rel := range rels {
		in := p.inDir(rel)
		if len(in) == 0 {
			t.Fatalf("no package in %s among the %d loaded from %s", rel, len(p.Packages), p.Dir)
		}
		sub.Packages = append(sub.Packages, in...)
	}
	return sub
}
