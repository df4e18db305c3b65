// Package pkgload loads Go packages for slotlint's analyzers as
// golang.org/x/tools/go/packages does, except that the standard library
// and the Redis client libraries' own packages (clientpaths.IsClientPackage)
// are kept to their declarations: function bodies and the initial values
// of package-level variables are dropped while parsing.
//
// The analyzers find nothing in those packages and record no facts for
// them (keyexpr's TestStandardLibraryExportsNoFacts; keyexpr and redisapi
// skip client packages), and go vet's shortcut (internal/vetx) answers for
// them with their types alone, which the end-to-end tests hold to the
// same findings; their importers need only their declarations.
// Type-checking the rest was most of every load: net/http, crypto/tls and
// the rest that a Redis client imports, unicode's tables, and the client
// itself. A module's own packages and every other dependency are loaded
// whole: the facts come from them. A client is recognised in the module
// cache (GOMODCACHE) only; one replaced by a directory or vendored is
// loaded whole, which costs time, not findings.
//
// Dropping bodies leaves one error go/types reports, an import used only
// in what was dropped; Load removes it from the packages it kept to their
// declarations, so they and their importers are not ill-typed. Every other
// error is kept.
package pkgload

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/internal/clientpaths"
)

// Load is packages.Load with the function bodies of the standard library
// and of the client libraries' own packages dropped. The standard library
// is the go command's GOROOT/src and the module cache its GOMODCACHE,
// asked in cfg's directory and environment (a module's toolchain line may
// choose another go); when they cannot be asked, the packages are loaded
// whole, as packages.Load would. cfg is not modified; a ParseFile it sets
// still parses every file.
func Load(cfg *packages.Config, patterns ...string) ([]*packages.Package, error) {
	dirs, ok := goDirsOf(cfg)
	if !ok {
		return packages.Load(cfg, patterns...)
	}
	c := *cfg
	c.ParseFile = withoutBodies(dirs, cfg.ParseFile)
	pkgs, err := packages.Load(&c, patterns...)
	if err != nil {
		return nil, err
	}
	forgiveUnusedImports(dirs, pkgs)
	return pkgs, nil
}

// goDirs are the go command's GOROOT and GOMODCACHE: where the standard
// library and the clients' modules are.
type goDirs struct {
	goroot, modcache string
}

// goDirsOf asks the go command cfg runs for its goDirs. A GOMODCACHE that
// is not absolute leaves the clients their bodies.
func goDirsOf(cfg *packages.Config) (goDirs, bool) {
	cmd := exec.Command("go", "env", "GOROOT", "GOMODCACHE")
	cmd.Dir = cfg.Dir
	cmd.Env = cfg.Env // nil: this process's environment, as packages.Load
	out, err := cmd.Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || len(lines) != 2 || !filepath.IsAbs(lines[0]) {
		return goDirs{}, false
	}
	d := goDirs{goroot: filepath.Clean(lines[0])}
	if filepath.IsAbs(lines[1]) {
		d.modcache = filepath.Clean(lines[1])
	}
	return d, true
}

// declarationsOnly tells whether filename is of a package whose bodies
// are dropped: below GOROOT/src, or a client package in the module cache.
func (d goDirs) declarationsOnly(filename string) bool {
	if within(d.goroot, "src", filename) {
		return true
	}
	path, ok := d.importPath(filename)
	return ok && clientpaths.IsClientPackage(path)
}

// importPath returns the import path of the package of filename when the
// file is in the module cache: GOMODCACHE/MODULE@VERSION/DIR/FILE, MODULE
// escaped as the module cache spells it (an upper-case letter as '!' and
// the letter in lower case).
func (d goDirs) importPath(filename string) (string, bool) {
	if d.modcache == "" {
		return "", false
	}
	rel, err := filepath.Rel(d.modcache, filepath.Dir(filepath.Clean(filename)))
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	escaped, rest, ok := strings.Cut(rel, "@")
	if !ok || escaped == "" || strings.HasSuffix(escaped, "/") || strings.HasPrefix(escaped, "cache/") {
		return "", false // GOMODCACHE/cache holds downloads, not sources
	}
	module, ok := unescapeModule(escaped)
	if !ok {
		return "", false
	}
	if _, dir, ok := strings.Cut(rest, "/"); ok {
		return module + "/" + dir, true
	}
	return module, true
}

// unescapeModule undoes the module cache's escaping of a module path:
// "!x" is "X", and an upper-case letter cannot appear.
func unescapeModule(escaped string) (string, bool) {
	var b strings.Builder
	bang := false
	for _, r := range escaped {
		switch {
		case bang && 'a' <= r && r <= 'z':
			b.WriteRune(unicode.ToUpper(r))
			bang = false
		case bang || unicode.IsUpper(r):
			return "", false
		case r == '!':
			bang = true
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), !bang
}

// withoutBodies parses with parse, or as go/packages does when parse is
// nil, and empties the files of declarations-only packages
// (dropDefinitions). Without a parse of the caller's, those files are
// parsed without resolving identifiers to ast.Objects, which go/types and
// the analyzers do not read.
func withoutBodies(dirs goDirs, parse func(*token.FileSet, string, []byte) (*ast.File, error)) func(*token.FileSet, string, []byte) (*ast.File, error) {
	const mode = parser.AllErrors | parser.ParseComments
	return func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		declOnly := dirs.declarationsOnly(filename)
		var f *ast.File
		var err error
		switch {
		case parse != nil:
			f, err = parse(fset, filename, src)
		case declOnly:
			f, err = parser.ParseFile(fset, filename, src, mode|parser.SkipObjectResolution)
		default:
			f, err = parser.ParseFile(fset, filename, src, mode)
		}
		if f != nil && declOnly {
			dropDefinitions(f)
		}
		return f, err
	}
}

// dropDefinitions keeps what importers of f's package see, the types of
// its declarations, and drops the rest: every function's body becomes
// panicBody's, and a composite literal that initializes a package-level
// variable loses its elements (T{...} is T{}, of the same type; the
// tables of unicode and the like took a fifth of a load to type-check).
// An array literal [...]T{...} keeps its elements, which give its length.
func dropDefinitions(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body != nil {
				d.Body = panicBody(d.Body)
			}
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, spec := range d.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					ast.Inspect(v, dropInitializer)
				}
			}
		}
	}
}

// dropInitializer empties a function literal's body and a composite
// literal's elements, but an implicit-length array's, and goes on into
// the rest of an expression.
func dropInitializer(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.FuncLit:
		n.Body = panicBody(n.Body)
		return false
	case *ast.CompositeLit:
		if at, ok := n.Type.(*ast.ArrayType); ok {
			if _, implicit := at.Len.(*ast.Ellipsis); implicit {
				return true
			}
		}
		n.Elts = nil
		return false
	}
	return true
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

// within tells whether filename is below root/sub.
func within(root, sub, filename string) bool {
	return strings.HasPrefix(filepath.Clean(filename), filepath.Join(root, sub)+string(filepath.Separator))
}

// unusedImport is go/types' message for an import that only dropped bodies
// used.
var unusedImport = regexp.MustCompile(`^"[^"]+" imported (as \S+ )?and not used$`)

// forgiveUnusedImports removes from the packages whose bodies were dropped
// the one error that dropping them causes, an import used only in bodies,
// and then clears IllTyped (the package or a dependency has errors, which
// keeps the checker from running analyzers on it) where it no longer
// holds. A package with errors left, or an ill-typed import, stays
// ill-typed, as packages.Load left it.
func forgiveUnusedImports(dirs goDirs, pkgs []*packages.Package) {
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 && len(p.GoFiles) > 0 && dirs.declarationsOnly(p.GoFiles[0]) {
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
