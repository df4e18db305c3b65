package redisapi

import (
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/internal/rediscmd"
)

// goRedisTypes loads go-redis v9's API (types only) from the module cache.
func goRedisTypes(t *testing.T) *types.Package {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedName}, GoRedis)
	if err != nil || len(pkgs) != 1 || pkgs[0].Types == nil {
		t.Fatalf("loading go-redis: %v", err)
	}
	return pkgs[0].Types
}

func cmdableMethod(t *testing.T, pkg *types.Package, typ, name string) *types.Signature {
	t.Helper()
	obj := pkg.Scope().Lookup(typ)
	if obj == nil {
		t.Fatalf("go-redis has no type %s", typ)
	}
	ms := types.NewMethodSet(types.NewPointer(obj.Type()))
	sel := ms.Lookup(pkg, name)
	if sel == nil {
		ms = types.NewMethodSet(obj.Type())
		sel = ms.Lookup(pkg, name)
	}
	if sel == nil {
		return nil
	}
	return sel.Obj().Type().(*types.Signature)
}

func isStringSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	return ok && astutil.IsString(s.Elem())
}

func structField(t types.Type, name string) (types.Type, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil, false
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == name {
			return st.Field(i).Type(), true
		}
	}
	return nil, false
}

// TestTableMatchesGoRedis checks every entry of the multi-key table against
// the real go-redis v9.23.0 signatures: the method exists on Cmdable (or
// Script), and each key position has the type the table says.
func TestTableMatchesGoRedis(t *testing.T) {
	checkTable(t, goRedisTypes(t), nil)
}

// checkTable checks the table against one go-redis API. A method the API
// lacks is an error unless absent is given; absent then receives its name.
func checkTable(t *testing.T, pkg *types.Package, absent func(name string)) {
	t.Helper()
	check := func(typ, name string, mt method) {
		sig := cmdableMethod(t, pkg, typ, name)
		if sig == nil {
			if absent != nil {
				absent(typ + "." + name)
				return
			}
			t.Errorf("%s.%s: no such method in go-redis", typ, name)
			return
		}
		if cmd := strings.Fields(mt.cmd)[0]; !newerCommands[cmd] {
			if _, ok := rediscmd.Lookup(cmd); !ok {
				t.Errorf("%s: command %s is not in Redis's command table", name, cmd)
			}
		}
		params := sig.Params()
		for _, spec := range mt.keys {
			if spec.i >= params.Len() {
				t.Errorf("%s: key argument %d beyond %d parameters", name, spec.i, params.Len())
				continue
			}
			p := params.At(spec.i).Type()
			last := spec.i == params.Len()-1
			ok := false
			switch spec.kind {
			case argKey:
				ok = astutil.IsString(p)
			case argVariadic:
				ok = last && sig.Variadic() && isStringSlice(p)
			case argSlice:
				ok = isStringSlice(p)
			case argField:
				ft, found := structField(p, spec.field)
				ok = found && astutil.IsString(ft)
			case argFieldList:
				ft, found := structField(p, spec.field)
				ok = found && isStringSlice(ft)
			case argStreams:
				if spec.field == "" {
					ok = last && sig.Variadic() && isStringSlice(p)
				} else {
					ft, found := structField(p, spec.field)
					ok = found && isStringSlice(ft)
				}
			case argPairs:
				ok = last && sig.Variadic()
			case argMapKeys:
				mp, isMap := p.Underlying().(*types.Map)
				ok = isMap && astutil.IsString(mp.Key())
			}
			if !ok {
				t.Errorf("%s: argument %d (%s) does not hold keys as the table says (kind %d, field %q)", name, spec.i, p, spec.kind, spec.field)
			}
		}
	}
	for name, mt := range multiKey {
		check("Cmdable", name, mt)
	}
	for name, mt := range scriptMethods {
		check("Script", name, mt)
	}
}

// keyParams are go-redis parameter names that hold keys.
var keyParams = map[string]bool{
	"keys": true, "destination": true, "destKey": true, "dest": true, "dst": true,
	"newkey": true, "source": true, "sourceKey": true, "store": true,
}

// notMultiKey are Cmdable methods with such a parameter that are not Redis
// multi-key commands, with the reason.
var notMultiKey = map[string]string{
	"ClientKillByFilter":  "its arguments are client filters, not keys",
	"TSNRange":            "RedisTimeSeries module command, not in Redis's command table",
	"TSNRangeWithArgs":    "RedisTimeSeries module command, not in Redis's command table",
	"TSNRevRange":         "RedisTimeSeries module command, not in Redis's command table",
	"TSNRevRangeWithArgs": "RedisTimeSeries module command, not in Redis's command table",
}

// TestTableIsComplete: every Cmdable method with a key-list or second-key
// parameter is in the table, so a new go-redis method is not missed
// silently.
func TestTableIsComplete(t *testing.T) {
	if missing := missingFromTable(goRedisTypes(t)); len(missing) > 0 {
		t.Errorf("go-redis methods with several keys missing from the table: %s", strings.Join(missing, ", "))
	}
}

// missingFromTable lists the Cmdable methods of pkg with a key-list or
// second-key parameter that the table does not have.
func missingFromTable(pkg *types.Package) []string {
	iface := pkg.Scope().Lookup("Cmdable").Type().Underlying().(*types.Interface)
	var missing []string
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		sig := m.Type().(*types.Signature)
		if _, ok := multiKey[m.Name()]; ok || notMultiKey[m.Name()] != "" {
			continue
		}
		for j := 0; j < sig.Params().Len(); j++ {
			if keyParams[sig.Params().At(j).Name()] {
				missing = append(missing, m.Name()+"("+sig.Params().At(j).Name()+")")
				break
			}
		}
	}
	sort.Strings(missing)
	return missing
}
