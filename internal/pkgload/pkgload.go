// Package pkgload loads Go packages for slotlint's analyzers as
// golang.org/x/tools/go/packages does, except that the function bodies of
// the standard library are dropped while parsing.
//
// The analyzers find nothing in the standard library and record no facts
// for it (keyexpr's TestStandardLibraryExportsNoFacts); its importers need
// only its declarations. Type-checking its bodies was most of every load:
// net/http, crypto/tls and the rest that a Redis client imports. A module's
// own packages and every dependency outside the standard library keep
// their bodies: the facts come from them.
//
// Dropping bodies leaves one error go/types reports, an import used only
// in the bodies; Load removes it from the standard library's packages, so
// they and their importers are not ill-typed. Every other error is kept.
package pkgload

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Load is packages.Load with the standard library's function bodies
// dropped. The standard library is the go command's GOROOT/src, asked in
// cfg's directory and environment (a module's toolchain line may choose
// another go); when it cannot be asked, the packages are loaded whole, as
// packages.Load would. cfg is not modified; a ParseFile it sets still
// parses every file.
func Load(cfg *packages.Config, patterns ...string) ([]*packages.Package, error) {
	goroot, ok := goRoot(cfg)
	if !ok {
		return packages.Load(cfg, patterns...)
	}
	c := *cfg
	c.ParseFile = withoutBodies(goroot, cfg.ParseFile)
	pkgs, err := packages.Load(&c, patterns...)
	if err != nil {
		return nil, err
	}
	forgiveUnusedImports(goroot, pkgs)
	return pkgs, nil
}

// goRoot returns the GOROOT of the go command cfg runs.
func goRoot(cfg *packages.Config) (string, bool) {
	cmd := exec.Command("go", "env", "GOROOT")
	cmd.Dir = cfg.Dir
	cmd.Env = cfg.Env // nil: this process's environment, as packages.Load
	out, err := cmd.Output()
	goroot := strings.TrimSpace(string(out))
	if err != nil || !filepath.IsAbs(goroot) {
		return "", false
	}
	return filepath.Clean(goroot), true
}

// withoutBodies parses with parse, or as go/packages does when parse is
// nil, and replaces the body of every function and method declared in a
// file below goroot/src by panicBody's.
func withoutBodies(goroot string, parse func(*token.FileSet, string, []byte) (*ast.File, error)) func(*token.FileSet, string, []byte) (*ast.File, error) {
	if parse == nil {
		parse = func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments)
		}
	}
	return func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		f, err := parse(fset, filename, src)
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

// forgiveUnusedImports removes from the standard library's packages the
// one error that dropping their bodies causes, an import used only in
// bodies, and then clears IllTyped (the package or a dependency has
// errors, which keeps the checker from running analyzers on it) where it
// no longer holds. A package with errors left, or an ill-typed import,
// stays ill-typed, as packages.Load left it.
func forgiveUnusedImports(goroot string, pkgs []*packages.Package) {
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
		if p.IllTyped && len(p.Errors) == 0 {
			p.IllTyped = false
			for _, imp := range p.Imports {
				p.IllTyped = p.IllTyped || imp.IllTyped
			}
		}
	})
}
