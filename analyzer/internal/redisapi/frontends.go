package redisapi

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/internal/clientpaths"
)

// A frontEnd maps one client library's call shapes to Call and Tx records.
// Adding a client means adding a file with its collect function and one
// entry below; rules and messages do not change.
type frontEnd struct {
	name string
	// roots are the client's import paths. A package that depends on none
	// of them is skipped without reading its code; which packages are the
	// client itself, and not checked, clientpaths says.
	roots   []string
	collect func(pass *analysis.Pass, x *keyexpr.Extractor, res *Result)
	// defines, when set, reads a call of a function of one of roots that
	// makes a script value or loads a library: the text argument and
	// whether it is a library.
	defines func(fn *types.Func, call *ast.CallExpr) (text ast.Expr, library, ok bool)
	// layered: the library is built on another client and hands out its
	// values (the runtime takes a go-redis client), so the imports below
	// it still count when looking for the clients a package uses.
	layered bool
}

var frontEnds = []frontEnd{
	{name: "go-redis", roots: goRedisPaths, collect: collectGoRedis, defines: goRedisScript},
	{name: "redigo", roots: redigoPaths, collect: collectRedigo, defines: redigoScript},
	{name: "rueidis", roots: rueidisPaths, collect: collectRueidis, defines: rueidisScript},
	// The runtime is checked itself (its calls of go-redis), so no package
	// counts as the client's own; collectRuntime skips the runtime's.
	{name: "runtime", roots: runtimePaths, collect: collectRuntime, layered: true},
}

func run(pass *analysis.Pass) (any, error) {
	x := pass.ResultOf[keyexpr.Analyzer].(*keyexpr.Extractor)
	res := &Result{Keys: x, info: pass.TypesInfo}
	// Before anything else: a client's own packages (a go-redis extension
	// that imports go-redis) pass the clients they use on to importers too.
	used := usedRoots(pass)
	if clientpaths.IsClientPackage(pass.Pkg.Path()) {
		return res, nil
	}
	if len(used) == 0 {
		return res, nil
	}
	// The inspector is built here, not required from inspect.Analyzer: the
	// helper facts make this analyzer run on every dependency, and
	// requiring inspect would build an inspector for each of them, the
	// standard library included (BenchmarkAnalyzer's memory grew sixfold).
	res.ins = inspector.New(pass.Files)
	for _, fe := range frontEnds {
		for _, r := range fe.roots {
			if used[r] {
				fe.collect(pass, x, res)
				break
			}
		}
	}
	summarizeHelpers(pass, x, res)
	root := res.ins.Root()
	for _, tx := range res.Txs {
		splitRuns(root, tx)
	}
	return res, nil
}

// roots is every front end's import paths; layeredRoots those of layered
// front ends.
var roots, layeredRoots = func() (all, layered map[string]bool) {
	all, layered = map[string]bool{}, map[string]bool{}
	for _, fe := range frontEnds {
		for _, r := range fe.roots {
			all[r] = true
			layered[r] = fe.layered
		}
	}
	return all, layered
}()

// ClientsUsed is the package fact of the client packages (front ends'
// roots) a package depends on, directly or not, sorted. Each package reads
// its direct imports' facts instead of walking its whole import graph, a
// walk every package of a program repeated (quadratic in the graph).
type ClientsUsed struct{ Roots []string }

func (*ClientsUsed) AFact() {}

func (f *ClientsUsed) String() string { return "clients(" + strings.Join(f.Roots, " ") + ")" }

// usedRoots returns the client packages pass's package depends on, directly
// or not (the package itself included when it is one), and exports them as
// its ClientsUsed fact. The import graph is not followed below a client's
// root unless the client is layered on another (the runtime on go-redis).
func usedRoots(pass *analysis.Pass) map[string]bool {
	var used map[string]bool
	add := func(path string) {
		if used == nil {
			used = map[string]bool{}
		}
		used[path] = true
	}
	follow := func(p *types.Package) bool {
		if roots[p.Path()] {
			add(p.Path())
			return layeredRoots[p.Path()]
		}
		return true
	}
	if follow(pass.Pkg) {
		for _, q := range pass.Pkg.Imports() {
			if !follow(q) {
				continue
			}
			var f ClientsUsed
			if pass.ImportPackageFact(q, &f) {
				for _, r := range f.Roots {
					add(r)
				}
			}
		}
	}
	if len(used) > 0 {
		f := &ClientsUsed{Roots: make([]string, 0, len(used))}
		for r := range used {
			f.Roots = append(f.Roots, r)
		}
		slices.Sort(f.Roots)
		pass.ExportPackageFact(f)
	}
	return used
}

// ImportsClient reports whether pkg imports a client package of any front
// end directly.
func ImportsClient(pkg *types.Package) bool {
	for _, p := range pkg.Imports() {
		if roots[p.Path()] {
			return true
		}
	}
	return false
}
