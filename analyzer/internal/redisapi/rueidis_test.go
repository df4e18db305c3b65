package redisapi

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/types"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/internal/rediscmd"
)

// Test modules that pin rueidis and valkey-go v1.0.79, so the main module
// depends on neither.
var (
	rueidisModule = filepath.Join("..", "..", "testdata", "clients", "rueidis")
	valkeyModule  = filepath.Join("..", "..", "testdata", "clients", "valkey")
)

func loadIn(t *testing.T, dir string, mode packages.LoadMode, path string) *packages.Package {
	t.Helper()
	cfg := &packages.Config{Mode: mode | packages.NeedName | packages.NeedTypes, Dir: dir,
		Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=")}
	pkgs, err := packages.Load(cfg, path)
	if err != nil || len(pkgs) != 1 || pkgs[0].Types == nil || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading %s: %v %v", path, err, pkgs)
	}
	return pkgs[0]
}

// builderPackages are the command builders of rueidis and valkey-go,
// with their source.
func builderPackages(t *testing.T) []*packages.Package {
	mode := packages.NeedSyntax | packages.NeedTypesInfo
	return []*packages.Package{
		loadIn(t, rueidisModule, mode, Rueidis+"/internal/cmds"),
		loadIn(t, valkeyModule, mode, Valkey+"/internal/cmds"),
	}
}

// TestBuilderKeyMethods: the front end takes keys from exactly the builder
// methods that the builder itself treats as keys, by computing their slot
// (the slot(...) call in the generated method).
func TestBuilderKeyMethods(t *testing.T) {
	for _, pkg := range builderPackages(t) {
		n := 0
		for _, f := range pkg.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil || !fd.Name.IsExported() {
					continue
				}
				fn := pkg.TypesInfo.Defs[fd.Name].(*types.Func)
				recv := recvTypeName(fn)
				if recv == "Completed" || recv == "Cacheable" {
					continue // a built command, not a step of a chain
				}
				want := callsSlot(fd.Body)
				if got := IsBuilderKeyMethod(recv, fn); got != want {
					t.Errorf("%s: %s.%s: front end reads keys: %v, builder computes their slot: %v",
						pkg.PkgPath, recv, fn.Name(), got, want)
				}
				if want {
					n++
				}
			}
		}
		if n < 400 {
			t.Errorf("%s: only %d key methods: the builder's layout changed", pkg.PkgPath, n)
		}
	}
}

func callsSlot(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "slot" {
				found = true
			}
		}
		return !found
	})
	return found
}

// TestBuilderCommands: every command the builder starts names a command of
// Redis's table (or a module's), and the builder has a key method for it
// exactly when Redis's key specs give it keys.
func TestBuilderCommands(t *testing.T) {
	for _, pkg := range builderPackages(t) {
		builder := pkg.Types.Scope().Lookup("Builder").Type()
		ms := types.NewMethodSet(builder)
		known := 0
		for i := 0; i < ms.Len(); i++ {
			fn := ms.At(i).Obj().(*types.Func)
			if fn.Name() == "Arbitrary" {
				continue
			}
			command := builderCommand(fn.Name())
			cmd, ok := rediscmd.Lookup(strings.ReplaceAll(command, " ", "|"))
			if !ok {
				continue // a module's command, or newer than the table
			}
			known++
			// Shard channels are no keys to Redis's key specs, but are
			// hashed to slots like keys, and must share one.
			hasKeys := hasAnyPrefix(fn.Name(), shardChannelCommands)
			for _, s := range cmd.KeySpecs {
				hasKeys = hasKeys || s.Flags&rediscmd.KeyNotKey == 0
			}
			if got := reachesKeyMethod(fn); got != hasKeys {
				t.Errorf("%s (%s): builder reads keys: %v, Redis's key specs give keys: %v", fn.Name(), command, got, hasKeys)
			}
		}
		if known < 200 {
			t.Errorf("%s: only %d builder commands found in Redis's table", pkg.PkgPath, known)
		}
	}
}

// reachesKeyMethod reports whether some chain from the command method
// calls a key method.
func reachesKeyMethod(start *types.Func) bool {
	seen := map[types.Type]bool{}
	var walk func(t types.Type) bool
	walk = func(t types.Type) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		ms := types.NewMethodSet(t)
		for i := 0; i < ms.Len(); i++ {
			fn := ms.At(i).Obj().(*types.Func)
			if IsBuilderKeyMethod(recvTypeName(fn), fn) {
				return true
			}
			if res := fn.Type().(*types.Signature).Results(); res.Len() == 1 && walk(res.At(0).Type()) {
				return true
			}
		}
		return false
	}
	return walk(start.Type().(*types.Signature).Results().At(0).Type())
}

// TestTableMatchesRueidisCompat: rueidiscompat mirrors go-redis's
// Cmdable, so the go-redis method table reads it; each table method it has
// takes its keys where go-redis does.
func TestTableMatchesRueidisCompat(t *testing.T) {
	pkg := loadIn(t, rueidisModule, 0, Rueidis+"/rueidiscompat").Types
	var absent []string
	checkTable(t, pkg, func(name string) { absent = append(absent, name) })
	sort.Strings(absent)
	if got, want := strings.Join(absent, " "), strings.Join(absentInRueidisCompat, " "); got != want {
		t.Errorf("table methods absent from rueidiscompat:\n got %s\nwant %s", got, want)
	}
	// Watch is in rueidiscompat's Cmdable, not go-redis's: the front end
	// reads it as a WATCH block, not through the table.
	missing := slices.DeleteFunc(missingFromTable(pkg), func(m string) bool { return m == "Watch(keys)" })
	if len(missing) > 0 {
		t.Errorf("rueidiscompat methods with several keys missing from the table: %s", strings.Join(missing, ", "))
	}
}

// absentInRueidisCompat are table methods rueidiscompat v1.0.79 lacks:
// commands newer than it, and a go-redis alias. Code using it never calls
// them.
var absentInRueidisCompat = []string{
	"Cmdable.BLMoveM", "Cmdable.BitOpAndOr", "Cmdable.BitOpDiff", "Cmdable.BitOpDiff1", "Cmdable.BitOpOne",
	"Cmdable.FCallRo", "Cmdable.LMoveM", "Cmdable.SDiffCard", "Cmdable.SUnionCard",
}

// builtWord and builtCommand are the JSON lines of builderdump (in the
// rueidis test module): commands built through every builder type, with
// the method and argument each word comes from.
type builtWord struct {
	Text     string `json:"text"`
	Recv     string `json:"recv"`
	Method   string `json:"method"`
	Arg      int    `json:"arg"`
	Variadic bool   `json:"variadic"`
	StrParam bool   `json:"strParam"`
}

type builtCommand struct {
	Start string      `json:"start"`
	Argv  []builtWord `json:"argv"`
}

// TestBuilderKeyPositions builds a command through every builder type with
// the real rueidis builder, and checks that the words the front end takes
// as keys (from key methods: every argument of a variadic one, the first
// of the others) are exactly those Redis's key specs locate in the argv,
// for every command whose keys the specs locate. It runs in the rueidis
// test module, which holds the client.
func TestBuilderKeyPositions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every command with the real builder")
	}
	cmd := exec.Command("go", "run", "./builderdump")
	cmd.Dir = rueidisModule
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("builderdump: %v", err)
	}
	checked, multi := 0, 0
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var c builtCommand
		if err := dec.Decode(&c); err != nil {
			t.Fatal(err)
		}
		argv := make([]rediscmd.Arg, len(c.Argv))
		for i, w := range c.Argv {
			argv[i] = rediscmd.Arg{Text: w.Text, Known: true}
		}
		rc := rediscmd.Resolve(argv)
		if rc == nil || hasAnyPrefix(c.Start, shardChannelCommands) || c.Start == "DebugObject" {
			// Newer than the table, a module's, shard channels (no keys to
			// the specs), or DEBUG OBJECT key, whose key Redis's DEBUG
			// entry does not describe.
			continue
		}
		refs, complete := rc.Keys(argv)
		if !complete {
			continue
		}
		want := map[int]bool{}
		for _, r := range refs {
			want[r.Index] = true
		}
		got := map[int]bool{}
		for i, w := range c.Argv {
			if w.Method != "" && builderKeyMethod(w.Recv, w.Method, w.StrParam) && (w.Variadic || w.Arg == 0) {
				got[i] = true
			}
		}
		checked++
		if len(want) > 1 {
			multi++
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: %v: front end keys at %v, Redis's key specs at %v", c.Start, texts(c.Argv), sortedKeys(got), sortedKeys(want))
		}
	}
	if checked < 300 || multi < 30 {
		t.Errorf("only %d commands checked, %d with several keys", checked, multi)
	}
	t.Logf("%d commands checked, %d with several keys", checked, multi)
}

func texts(ws []builtWord) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Text)
	}
	return out
}

func sortedKeys(m map[int]bool) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
