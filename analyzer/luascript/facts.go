package luascript

import (
	"fmt"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/analyzer/internal/redisapi"
)

// ScriptFact is the fact recorded for an exported package-level variable
// that holds one script (var Claim = redis.NewScript(src), or its text):
// a package that runs it checks each call against the text.
type ScriptFact struct {
	Src      string
	Embedded string // the embedded file's name, for an embedded script
	Library  bool   // loaded with FUNCTION LOAD
}

// AFact marks ScriptFact as an analysis fact.
func (*ScriptFact) AFact() {}

func (f *ScriptFact) String() string { return fmt.Sprintf("script(%d bytes)", len(f.Src)) }

// ScriptFacts exports a ScriptFact for each exported package-level
// variable holding a script. It is its own analyzer, with no
// requirements, so a package that imports no client costs one look at its
// imports: facts are computed for every dependency.
var ScriptFacts = &analysis.Analyzer{
	Name:       "slotlintscripts",
	Doc:        analyzerdoc.MustExtract(doc, "slotlintscripts"),
	Run:        runFacts,
	FactTypes:  []analysis.Fact{new(ScriptFact)},
	ResultType: reflect.TypeOf((*importedScripts)(nil)),
}

// importedScripts looks up the scripts of other packages' variables.
type importedScripts struct {
	importFact func(types.Object, analysis.Fact) bool
}

// lookup returns the script an imported variable holds.
func (is *importedScripts) lookup(v *types.Var) (*ScriptFact, bool) {
	if is == nil || is.importFact == nil {
		return nil, false
	}
	f := new(ScriptFact)
	if !is.importFact(v, f) {
		return nil, false
	}
	return f, true
}

func runFacts(pass *analysis.Pass) (any, error) {
	out := &importedScripts{importFact: pass.ImportObjectFact}
	if !redisapi.ImportsClient(pass.Pkg) {
		return out, nil
	}
	var exported []*types.Var
	scope := pass.Pkg.Scope()
	for _, name := range scope.Names() {
		if v, ok := scope.Lookup(name).(*types.Var); ok && v.Exported() {
			exported = append(exported, v)
		}
	}
	if len(exported) == 0 {
		return out, nil
	}
	r := newResolver(pass)
	for _, v := range exported {
		s := r.objectScript(v)
		if s == nil || s.err != "" {
			continue
		}
		pass.ExportObjectFact(v, &ScriptFact{Src: string(s.src), Embedded: s.embedded, Library: s.library})
	}
	return out, nil
}

// objectScript is the script a package-level variable holds: embedded
// text, or the one value it is given, as text or as a script value.
func (r *resolver) objectScript(v *types.Var) *script {
	if d := r.embeds[v]; d != nil {
		if isEmbedFS(v.Type()) {
			return nil
		}
		return r.intern(r.embedFile(d, "", d.comment))
	}
	if r.multi[v] || r.index[v] >= 0 {
		return nil
	}
	val, ok := r.value[v]
	if !ok || val == nil {
		return nil
	}
	if astutil.IsString(v.Type()) {
		return r.text(val)
	}
	return r.scriptValue(val)
}
