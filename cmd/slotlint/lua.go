package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/slotlint/slotlint/analyzer/config"
	"github.com/slotlint/slotlint/internal/sarif"
	"github.com/slotlint/slotlint/luacheck"
)

func init() {
	register(subcommand{
		usage:   "[flags] FILE|DIR...",
		name:    "lua",
		summary: "check Redis Lua scripts and Functions libraries (.lua files or directories)",
		run:     runLua,
	})
}

func runLua(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("lua", flag.ContinueOnError)
	fset.SetOutput(stderr)
	asJSON := fset.Bool("json", false, "print one JSON array of {posn, category, message}")
	asSARIF := fset.Bool("sarif", false, "print findings as SARIF 2.1.0")
	keys := fset.Int("keys", -1, "number of keys the scripts are called with (-1: unknown)")
	keysFromName := fset.Bool("keys-from-name", false, `take the number of keys from a "name-N.lua" file name (job-queue convention)`)
	function := fset.Bool("function", false, "check the files as Redis 7 Functions libraries (default: files starting with \"#!lua name=\")")
	readOnly := fset.Bool("readonly", false, "the scripts run with EVAL_RO/FCALL_RO")
	keysTagged := fset.Bool("keys-tagged", false, "the keys the scripts get in KEYS and the key prefixes they get in ARGV carry the project's hash tag: keys derived from KEYS[i] are not LUA202, keys built on a prefix from ARGV are not LUA201; a whole key passed in ARGV, and keys built on one, still are, since it may be another entity's key under its own tag (as a \"-- slotlint:keys-tagged\" comment in a script)")
	argLoops := fset.Bool("arg-loops", false, "also report loops over the request's own arguments as LUA102: #KEYS, #ARGV, ipairs(KEYS), ipairs(ARGV), and lists decoded from ARGV or from a KEYS element (for _, id in ipairs(cjson.decode(ARGV[1])))")
	returnedReads := fset.Bool("returned-reads", false, "also report as LUA103 a whole-collection read the script returns as its reply as it is (return redis.call('ZRANGE', KEYS[1], 0, -1)): the caller asked for the collection, so by default it is quiet")
	prelude := fset.String("prelude", "", "a Lua `file` the application prepends to each script before running it; its findings are reported in it")
	globals := fset.String("globals", "", "comma-separated `names` defined elsewhere (by a prelude the checker does not see)")
	includes := fset.Bool("includes", true, `resolve BullMQ-style "--- @include \"name\"" lines relative to the script`)
	var rulesOff, rulesOnly []string
	fset.Var(config.IDList(&rulesOff), "disable", "comma-separated rule `IDs` not to report, e.g. LUA201,LUA202 for scripts that never run on a cluster")
	fset.Var(config.IDList(&rulesOnly), "enable", "comma-separated rule `IDs` to report exclusively")
	listRules := fset.Bool("rules", false, "list the rules and exit")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: slotlint lua [flags] FILE|DIR...")
		fmt.Fprintln(stderr, "checks Redis Lua scripts; directories are walked for *.lua files.")
		fmt.Fprintln(stderr, "exit status: 0 no findings, 1 findings, 2 usage or I/O error, or a file over the size limit.")
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if *listRules {
		printRules(stdout)
		return 0
	}
	if fset.NArg() == 0 {
		fset.Usage()
		return 2
	}
	if *keys < -1 {
		fmt.Fprintln(stderr, "slotlint lua: -keys must be -1 (unknown) or at least 0")
		return 2
	}
	// The rule selection is the analyzer's own, so both modes accept and
	// refuse the same IDs; only LUA rules apply to Lua files.
	for _, ids := range [][]string{rulesOff, rulesOnly} {
		for _, id := range ids {
			if !strings.HasPrefix(id, "LUA") {
				fmt.Fprintf(stderr, "slotlint lua: %s is a rule of Go code; slotlint lua reports LUA rules only (slotlint lua -rules lists them)\n", id)
				return 2
			}
		}
	}
	selection, err := config.New(config.Settings{Disable: rulesOff, Enable: rulesOnly})
	if err != nil {
		fmt.Fprintf(stderr, "slotlint lua: %v\n", strings.TrimPrefix(err.Error(), "slotlint: "))
		return 2
	}

	var preludeText string
	if *prelude != "" {
		b, err := os.ReadFile(*prelude)
		if err != nil {
			fmt.Fprintf(stderr, "slotlint lua: -prelude: %v\n", err)
			return 2
		}
		preludeText = string(b)
	}
	files, err := luaFiles(fset.Args(), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "slotlint lua: %v\n", err)
		return 2
	}
	files, inputErrors := checkableFiles(files, stderr)
	// A lint run is short and its heap small: trading memory for fewer
	// collections speeds it up markedly (the parser copies pointer-rich
	// parser states, which costs write barriers while a GC runs). Over the
	// 400 scripts of bench/luacheck it runs no collection at all, as fast
	// as GOGC=off; 100 and 200 cost about 15% more CPU time (BENCHMARKS.md).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	results := luacheck.CheckFiles(files, 0, func(file string, src []byte) luacheck.Options {
		opts := luacheck.Options{
			NumKeys:       *keys,
			KeysKnown:     *keys >= 0,
			Function:      *function || luacheck.IsLibrary(src),
			ReadOnly:      *readOnly,
			KeysTagged:    *keysTagged,
			ArgLoops:      *argLoops,
			ReturnedReads: *returnedReads,
			Prelude:       preludeText,
			PreludeFile:   *prelude,
			Globals:       *globals,
			Includes:      *includes,
		}
		if *keysFromName {
			if n, ok := luacheck.KeysFromFilename(file); ok {
				opts.NumKeys, opts.KeysKnown = n, true
			}
		}
		return opts
	})
	var findings []luacheck.Finding
	status := 0
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintf(stderr, "slotlint lua: %v\n", r.Err)
			status = 2
			continue
		}
		for _, f := range r.Findings {
			if selection.Enabled(f.Rule) {
				findings = append(findings, f)
			}
		}
	}

	out := bufio.NewWriter(stdout)
	if *asSARIF {
		if err := sarif.Write(out, sarif.LuaRules(), sarif.LuaFindings(findings)); err != nil {
			fmt.Fprintf(stderr, "slotlint lua: %v\n", err)
			return 2
		}
	} else if *asJSON {
		type jsonFinding struct {
			Posn     string `json:"posn"`
			Category string `json:"category"`
			Message  string `json:"message"`
		}
		list := make([]jsonFinding, 0, len(findings))
		for _, f := range findings {
			list = append(list, jsonFinding{Posn: f.Pos.String(), Category: f.Rule, Message: f.Message})
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "\t")
		if err := enc.Encode(list); err != nil {
			fmt.Fprintf(stderr, "slotlint lua: %v\n", err)
			return 2
		}
	} else {
		for _, f := range findings {
			fmt.Fprintf(out, "%s: %s %s\n", f.Pos, f.Rule, f.Message)
		}
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "slotlint lua: %v\n", err)
		return 2
	}
	if status != 0 || inputErrors {
		return 2
	}
	if len(findings) > 0 {
		return 1
	}
	return 0
}

// checkableFiles drops the files the checker cannot check and says why on
// stderr: an empty file (a note; nothing to check is not an error) and a
// file over the checker's size limit, named with its size (an error of the
// input, not a finding of the script). It reports whether any file was
// over the limit.
func checkableFiles(files []string, stderr io.Writer) ([]string, bool) {
	kept := files[:0]
	tooBig := false
	for _, f := range files {
		info, err := os.Stat(f)
		switch {
		case err != nil:
			kept = append(kept, f) // the checker reports it
		case info.Size() > luacheck.DefaultMaxBytes:
			fmt.Fprintf(stderr, "slotlint lua: %s: %d bytes (%.1f MiB) is over the checker's limit of %d bytes (%d MiB): not checked\n",
				f, info.Size(), float64(info.Size())/(1<<20), luacheck.DefaultMaxBytes, luacheck.DefaultMaxBytes>>20)
			tooBig = true
		case info.Size() == 0:
			fmt.Fprintf(stderr, "slotlint lua: %s is empty: nothing to check\n", f)
		default:
			kept = append(kept, f)
		}
	}
	return kept, tooBig
}

// luaFiles expands directories into their *.lua files, sorted; files named
// on the command line are checked whatever their extension. A directory
// without any *.lua file is named on stderr, so a mistyped directory does
// not pass as a clean one.
func luaFiles(args []string, stderr io.Writer) ([]string, error) {
	var files []string
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, arg)
			continue
		}
		var found []string
		// WalkDir joins names with filepath.Join, which drops a leading
		// "./": keep it, so the paths printed are spelled as the user
		// named the directory.
		dot := "." + string(filepath.Separator)
		keepDot := strings.HasPrefix(arg, dot)
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".lua") {
				if keepDot && !strings.HasPrefix(path, dot) && !strings.HasPrefix(path, "..") {
					path = dot + path
				}
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			fmt.Fprintf(stderr, "slotlint lua: %s holds no .lua files: nothing to check\n", arg)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

func printRules(w io.Writer) {
	for _, r := range luacheck.Rules {
		fmt.Fprintf(w, "%s  %s\n", r.ID, r.Title)
		fmt.Fprintf(w, "        why:  %s\n", r.Why)
		fmt.Fprintf(w, "        bad:  %s\n", strings.ReplaceAll(r.Bad, "\n", "\n              "))
		fmt.Fprintf(w, "        good: %s\n", strings.ReplaceAll(r.Good, "\n", "\n              "))
	}
	fmt.Fprintf(w, "suppress any rule with: %s\n", luacheck.Suppress)
}
