package suitetest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// goRoot is the go command's GOROOT, asked once per test binary.
var goRoot = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %v", err)
	}
	return filepath.Clean(strings.TrimSpace(string(out))), nil
})

// parseWithoutStandardBodies parses as go/packages does, and replaces the
// body of every function and method declared in a file of the standard
// library (below goroot/src) by panicBody's.
func parseWithoutStandardBodies(goroot string) func(*token.FileSet, string, []byte) (*ast.File, error) {
	return func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		f, err := parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments)
		if f != nil && inStandardLibrary(goroot, filename) {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					fd.Body = panicBody(fd.Body)
				}
			}
		}
		return f, err
	}
}

// panicBody is { panic("") } at body's braces: a body go/types accepts for
// any function (one without results, with results, generic, or init, which
// must have one) and that uses nothing.
func panicBody(body *ast.BlockStmt) *ast.BlockStmt {
	call := &ast.CallExpr{
		Fun:    &ast.Ident{NamePos: body.Lbrace, Name: "panic"},
		Lparen: body.Lbrace,
		Args:   []ast.Expr{&ast.BasicLit{ValuePos: body.Lbrace, Kind: token.STRING, Value: `""`}},
		Rparen: body.Lbrace,
	}
	return &ast.BlockStmt{Lbrace: body.Lbrace, List: []ast.Stmt{&ast.ExprStmt{X: call}}, Rbrace: body.Rbrace}
}

// inStandardLibrary tells whether filename is below goroot/src.
func inStandardLibrary(goroot, filename string) bool {
	return strings.HasPrefix(filepath.Clean(filename), filepath.Join(goroot, "src")+string(filepath.Separator))
}

// unusedImport is go/types' message for an import that only dropped bodies
// used.
var unusedImport = regexp.MustCompile(`^"[^"]+" imported (as \S+ )?and not used$`)

// forgiveUnusedStandardImports removes from the standard library's
// packages the one error that dropping their bodies causes, an import used
// only in bodies, and recomputes IllTyped (the package or a dependency has
// errors), which keeps the checker from running analyzers on a package.
func forgiveUnusedStandardImports(goroot string, pkgs []*packages.Package) {
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 && len(p.GoFiles) > 0 && inStandardLibrary(goroot, p.GoFiles[0]) {
			kept := p.Errors[:0]
			for _, e := range p.Errors {
				if e.Kind != packages.TypeError || !unusedImport.MatchString(e.Msg) {
					kept = append(kept, e)
				}
			}
			p.Errors = kept
			typeErrs := p.TypeErrors[:0]
			for _, e := range p.TypeErrors {
				if !unusedImport.MatchString(e.Msg) {
					typeErrs = append(typeErrs, e)
				}
			}
			p.TypeErrors = typeErrs
		}
		p.IllTyped = len(p.Errors) > 0
		for _, imp := range p.Imports {
			p.IllTyped = p.IllTyped || imp.IllTyped
		}
	})
}
