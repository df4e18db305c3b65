package luacheck

import (
	"path/filepath"
	"slices"

	"github.com/yuin/gopher-lua/ast"
)

// dropHeaderNames removes LUA302 findings on names that a header file
// beside the script defines, when that header is checked in the same run.
// A header only declares locals (local settings_key = KEYS[1], local
// process_tick = function ... end), with at most a call such as
// redis.replicate_commands(): run alone it does nothing, so it exists to
// be joined before other scripts, as Bottleneck joins refs.lua and its
// helpers with each body. Names no header defines (a typo, a local
// forgotten) are still reported, and so is a script whose names only
// another full script declares.
func dropHeaderNames(results []FileResult) {
	// Only directories with such a finding need their headers read.
	dirs := map[string]bool{}
	for _, r := range results {
		for _, f := range r.Findings {
			if len(f.appGlobals) > 0 {
				dirs[filepath.Dir(r.Path)] = true
			}
		}
	}
	if len(dirs) == 0 {
		return
	}
	defined := map[string]map[string][]string{} // dir -> name -> header paths
	for _, r := range results {
		dir := filepath.Dir(r.Path)
		if !dirs[dir] {
			continue
		}
		for _, name := range r.header {
			if defined[dir] == nil {
				defined[dir] = map[string][]string{}
			}
			defined[dir][name] = append(defined[dir][name], r.Path)
		}
	}
	for i, r := range results {
		byName := defined[filepath.Dir(r.Path)]
		if byName == nil {
			continue
		}
		results[i].Findings = slices.DeleteFunc(r.Findings, func(f Finding) bool {
			if len(f.appGlobals) == 0 {
				return false
			}
			for _, n := range f.appGlobals {
				paths := byName[n]
				if len(paths) == 0 || len(paths) == 1 && paths[0] == r.Path {
					return false
				}
			}
			return true
		})
	}
}

// headerNames are the locals a file declares when it is a header, nil
// otherwise (it runs a command, returns, calls a function of its own, or
// assigns a global).
func headerNames(chunk []ast.Stmt) []string {
	var names []string
	for _, st := range chunk {
		switch s := st.(type) {
		case *ast.LocalAssignStmt:
			names = append(names, s.Names...)
		case *ast.FuncCallStmt:
			if !setupCall(s.Expr) {
				return nil
			}
		default:
			return nil
		}
	}
	return names
}

// setupCall: redis.replicate_commands(), redis.set_repl(...) or
// redis.setresp(...), which a header may run before the body it prefixes.
func setupCall(e ast.Expr) bool {
	call, ok := e.(*ast.FuncCallExpr)
	if !ok {
		return false
	}
	attr, ok := call.Func.(*ast.AttrGetExpr)
	if !ok {
		return false
	}
	obj, ok := attr.Object.(*ast.IdentExpr)
	key, ok2 := attr.Key.(*ast.StringExpr)
	if !ok || !ok2 || obj.Value != "redis" {
		return false
	}
	switch key.Value {
	case "replicate_commands", "set_repl", "setresp":
		return true
	}
	return false
}
