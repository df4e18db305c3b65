// Package vetx answers go vet -vettool's requests for packages that only
// need their types, without running the analyzers. It writes the "vetx"
// files of x/tools' unitchecker, a private format: the layout is pinned to
// the x/tools version it was written for (WrittenFor), and a binary linked
// with any other version is never answered here, so it falls back to
// unitchecker itself.
//
// go vet -vettool asks the tool for every package a module depends on, the
// standard library included (most of the packages: 216 of 298 for
// go-redis with its tests), with VetxOnly set: report nothing, write the
// package's "vetx" file, which holds its types (for importers) and its
// analysis facts. slotlint records no facts for the standard library and
// for Redis client libraries (keyexpr), so for those packages it only
// needs their exported types, and gets them by type-checking declarations
// without function bodies, several times faster than the full analysis
// unitchecker would run. Anything unexpected falls back to unitchecker.
// Other dependencies get their facts from the fact analyzers alone.
package vetx

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/slotlint/slotlint/internal/stdlib"
	"golang.org/x/tools/go/gcexportdata"
)

// WrittenFor is the golang.org/x/tools version whose vetx layout this
// package writes (the format changed between v0.49 and v0.52).
// TestPinnedToGoMod fails when go.mod requires another one.
const WrittenFor = "v0.52.0"

// toolsModule is the module whose unitchecker reads the files.
const toolsModule = "golang.org/x/tools"

// Suite is what the shortcut needs to know of the analyzers.
type Suite struct {
	// TypesOnly reports whether the suite records no facts for a package
	// (a Redis client library's own), so that its types are all it needs.
	TypesOnly func(importPath string) bool
	// Facts are the analyzers that record facts, all that a dependency
	// needs to run.
	Facts []*analysis.Analyzer
}

// linkedFormat reports whether the running binary is linked with the
// x/tools version the layout was written for.
var linkedFormat = sync.OnceValue(func() bool {
	bi, ok := debug.ReadBuildInfo()
	return ok && formatMatches(bi)
})

// formatMatches reports whether bi links x/tools at WrittenFor: as a
// dependency (slotlint built in its own module or as a tool of another)
// or replaced by a module of that version.
func formatMatches(bi *debug.BuildInfo) bool {
	for _, dep := range bi.Deps {
		if dep.Path != toolsModule {
			continue
		}
		if dep.Replace != nil {
			return dep.Replace.Version == WrittenFor
		}
		return dep.Version == WrittenFor
	}
	return false
}

// vetConfig is the part of go vet's per-package .cfg file read here.
type vetConfig struct {
	ImportPath  string
	ModulePath  string
	GoFiles     []string
	GoVersion   string
	ImportMap   map[string]string
	PackageVetx map[string]string
	VetxOnly    bool
	VetxOutput  string
	Stdout      string
	FixArchive  string
}

// vetxMagic and the layout below are unitchecker's vetx file format at
// WrittenFor: "vetx", the length of the types section and of the facts
// section (uint32 little-endian), the types in indexed export format
// without its 'i' prefix, then the facts. TestStandardVetxKeepsExportedAPI
// and the end-to-end go vet tests fail if it changes.
const vetxMagic = "vetx"

// vetGCPercent is the GC target of a go vet tool process (see Answer);
// BENCHMARKS.md has the measurement.
const vetGCPercent = 400

// Answer answers go vet's request for one package the cheap way when it
// can: the types alone for a standard-library or client package (and an
// empty result if the package is a vet target), or only the fact
// analyzers for another dependency (unitchecker.Run, which exits). It
// reports whether it answered; when not, the checker runs as usual. A
// binary linked with another x/tools than WrittenFor is never answered.
func Answer(args []string, suite Suite) (bool, int) {
	// go vet puts the tool's flags (such as -json) before the file; they do
	// not matter when nothing is reported.
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") || !linkedFormat() {
		return false, 0
	}
	// One process per package, alive for a fraction of a second and holding
	// one package's syntax and types: collecting its garbage as it goes
	// costs more CPU time than it saves memory.
	debug.SetGCPercent(vetGCPercent)
	data, err := os.ReadFile(args[len(args)-1])
	if err != nil {
		return false, 0
	}
	cfg := new(vetConfig)
	if json.Unmarshal(data, cfg) != nil || cfg.VetxOutput == "" {
		return false, 0
	}
	// The test keyexpr uses to export no facts for a package. (The
	// config's Standard map covers the package's imports, not itself.)
	typesOnly := stdlib.IsStandard(cfg.ImportPath, cfg.ModulePath) || suite.TypesOnly(cfg.ImportPath)
	switch {
	case cfg.VetxOnly && !typesOnly:
		// Only the facts are wanted: run just the analyzers that make them.
		unitchecker.Run(args[len(args)-1], suite.Facts) // exits
	case !cfg.VetxOnly && !(typesOnly && reportsOnly(args, cfg)):
		return false, 0
	}
	vetx, err := typesOnlyVetx(cfg)
	if err != nil {
		return false, 0
	}
	if err := os.WriteFile(cfg.VetxOutput, vetx, 0o666); err != nil {
		return false, 0
	}
	if !cfg.VetxOnly && slices.Contains(args, "-json") {
		// What unitchecker prints for a package without findings.
		if err := writeStdout(cfg, "{}\n"); err != nil {
			return false, 0
		}
	}
	return true, 0
}

// reportsOnly: go vet asks for findings only (no fixes to apply or diff),
// so a package no rule checks (a client library's own, when its
// repository is vetted) has nothing to say and needs only its types.
func reportsOnly(args []string, cfg *vetConfig) bool {
	if cfg.FixArchive != "" {
		return false
	}
	for _, a := range args[:len(args)-1] {
		if a != "-json" && !strings.HasPrefix(a, "-c=") && !strings.HasPrefix(a, "-slotlint.") {
			return false
		}
	}
	return true
}

func writeStdout(cfg *vetConfig, text string) error {
	if cfg.Stdout == "" {
		_, err := os.Stdout.WriteString(text)
		return err
	}
	return os.WriteFile(cfg.Stdout, []byte(text), 0o666)
}

// typesOnlyVetx type-checks the package's declarations against its
// imports' vetx files and encodes its types with no facts.
func typesOnlyVetx(cfg *vetConfig) ([]byte, error) {
	fset := token.NewFileSet()
	files := make([]*ast.File, 0, len(cfg.GoFiles))
	for _, name := range cfg.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	imports := map[string]*types.Package{}
	importer := importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		if mapped, ok := cfg.ImportMap[path]; ok {
			path = mapped
		}
		if pkg := imports[path]; pkg != nil && pkg.Complete() {
			return pkg, nil
		}
		typesData, err := vetxTypes(cfg.PackageVetx[path])
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		return gcexportdata.Read(bytes.NewReader(typesData), fset, imports, path)
	})
	var typeErr error
	conf := types.Config{
		Importer:         importer,
		IgnoreFuncBodies: true,
		Sizes:            types.SizesFor("gc", build.Default.GOARCH),
		GoVersion:        cfg.GoVersion,
		Error: func(err error) {
			if typeErr == nil {
				typeErr = err
			}
		},
	}
	pkg, _ := conf.Check(cfg.ImportPath, fset, files, nil)
	if typeErr != nil {
		return nil, typeErr
	}
	var exported bytes.Buffer
	if err := gcexportdata.Write(&exported, fset, pkg); err != nil {
		return nil, err
	}
	typesData := bytes.TrimPrefix(exported.Bytes(), []byte("i"))
	var out bytes.Buffer
	out.WriteString(vetxMagic)
	var lengths [8]byte
	binary.LittleEndian.PutUint32(lengths[0:4], uint32(len(typesData)))
	binary.LittleEndian.PutUint32(lengths[4:8], 0) // no facts
	out.Write(lengths[:])
	out.Write(typesData)
	return out.Bytes(), nil
}

// vetxTypes returns the types section of a vetx file, with the 'i' prefix
// gcexportdata.Read expects.
func vetxTypes(file string) ([]byte, error) {
	if file == "" {
		return nil, errors.New("no vetx file")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(data) < 12 || string(data[:4]) != vetxMagic {
		return nil, errors.New("not a vetx file")
	}
	n := binary.LittleEndian.Uint32(data[4:8])
	if uint64(12)+uint64(n) > uint64(len(data)) {
		return nil, errors.New("truncated vetx file")
	}
	typesData := make([]byte, 0, 1+n)
	typesData = append(typesData, 'i')
	return append(typesData, data[12:12+n]...), nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
