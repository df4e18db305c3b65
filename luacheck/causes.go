package luacheck

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// hostGlobals are globals that other Lua hosts provide and Redis's
// sandbox does not: a file that relies on them and never calls Redis is
// a module for those hosts (a Redis client library written in Lua), not
// a script Redis runs.
var hostGlobals = map[string]bool{
	"require": true, "module": true, "package": true, "dofile": true,
	"loadfile": true, "ngx": true,
}

// notAScript reports a file that never calls redis.call or redis.pcall
// and reads globals of another Lua host (require, ngx, module, ...): one
// finding at the first such read, in place of the others. Pointed at a
// Redis client library, the checker says what the file is instead of a
// hundred lines about a sandbox it was never meant to run in.
func notAScript(res *Result, fs []Finding) (Finding, bool) {
	if !res.Checked {
		return Finding{}, false
	}
	for _, use := range res.Commands {
		if use.Calls > 0 {
			return Finding{}, false
		}
	}
	var first *Finding
	var names []string
	for i := range fs {
		f := &fs[i]
		if f.Rule != RuleMissingGlobal || !hostGlobals[f.global] {
			continue
		}
		if first == nil {
			first = f
		}
		if !slices.Contains(names, f.global) {
			names = append(names, f.global)
		}
	}
	if first == nil {
		return Finding{}, false
	}
	f := Finding{Pos: first.Pos, Rule: RuleSyntax, Function: first.Function}
	f.Message = sprintf("not a Redis script: it never calls redis.call or redis.pcall and uses %s, which other Lua hosts provide and Redis's script sandbox does not (Redis fails with \"attempted to access nonexistent global variable '%s'\"); nothing else in it is reported",
		andList(names), first.global)
	return f, true
}

// groupCauses merges findings that share one cause into the first of
// them, whose message then names the lines of the others: the keys a file
// derives from one KEYS[i] (LUA202: one hash tag decides them all), the
// keys it builds from one ARGV[i] prefix or from one reply or decoded
// value (LUA201: the prefix's tag, or where the stored key lives, decides
// them all) and the reads of one missing global (LUA302: the first read
// already fails).
// fs is sorted by position, so the first is the earliest in its file.
func groupCauses(fs []Finding) []Finding {
	type cause struct {
		file, rule, what string
		keys             int
		// tagged: KEYS[i]'s own tag would be the key's; a key with a
		// literal "{" before KEYS[i] takes that tag instead, another cause.
		tagged bool
	}
	causeOf := func(f *Finding) (cause, bool) {
		switch {
		case f.Rule == RuleDerivedKey:
			return cause{file: f.Pos.File, rule: f.Rule, keys: f.KeysIndex, tagged: f.HasKey && tagFromKeys(f.Key.Parts())}, true
		case f.Rule == RuleUndeclaredKey && f.cause != "", f.Rule == RuleUnpackWhole && f.cause != "":
			return cause{file: f.Pos.File, rule: f.Rule, what: f.cause}, true
		case f.Rule == RuleMissingGlobal && removedGlobals[f.global]:
			// Standard library the sandbox removes: each name has its
			// own advice (redis.log for print, TIME for os.time).
			return cause{file: f.Pos.File, rule: f.Rule, what: f.Message}, true
		case f.Rule == RuleMissingGlobal && f.global != "":
			// Names the application defines elsewhere, or misspells:
			// Redis stops at the first read, and a prelude the checker
			// was not given defines them all at once.
			return cause{file: f.Pos.File, rule: f.Rule, what: "application"}, true
		}
		return cause{}, false
	}
	type group struct {
		first int   // index in out
		lines []int // lines of the others
		// names are the globals of an application group, in the order
		// of their first reads, at lines named.
		names []string
		named []int
		// others are the places of the others, for dropRepeats.
		others []Position
		// whole: some key of the group is its cause used whole (a key the
		// caller passes in ARGV); quiet: every key is one -keys-tagged
		// quiets, and the group is not printed.
		whole, quiet bool
		// usedWhole: where the check uses the root of some key of the
		// group as a whole key (wholeAt).
		usedWhole *Position
	}
	// wholeAt: where the check first uses a value as a whole key the
	// caller passes in ARGV, by root. A helper's key built on its
	// parentKey parameter is covered by -keys-tagged only if nothing in
	// the check, in its file or another, uses the same value whole (the
	// includer's EXISTS parentKey): it may be another entity's key.
	var wholeAt map[string]Position
	for _, f := range fs {
		if f.Rule == RuleUndeclaredKey && f.whole && f.root != "" {
			if _, ok := wholeAt[f.root]; !ok {
				if wholeAt == nil {
					wholeAt = map[string]Position{}
				}
				wholeAt[f.root] = f.Pos
			}
		}
	}
	wholeElsewhere := func(f *Finding) (Position, bool) {
		p, ok := wholeAt[f.root]
		return p, ok && f.tagged && f.root != ""
	}
	groups := map[cause]*group{}
	var order []*group
	out := fs[:0:0]
	for i := range fs {
		f := &fs[i]
		c, ok := causeOf(f)
		if !ok {
			out = append(out, *f)
			continue
		}
		if g := groups[c]; g != nil {
			g.whole = g.whole || f.whole
			g.quiet = g.quiet && f.tagged
			if p, ok := wholeElsewhere(f); ok && g.usedWhole == nil {
				g.usedWhole, g.quiet = &p, false
			}
			if c.what == "application" && !slices.Contains(g.names, f.global) {
				g.names, g.named = append(g.names, f.global), append(g.named, f.Pos.Line)
				continue
			}
			if f.Rule == RuleUndeclaredKey {
				g.others = append(g.others, f.Pos)
			}
			if f.Pos.Line != out[g.first].Pos.Line && !slices.Contains(g.lines, f.Pos.Line) {
				g.lines = append(g.lines, f.Pos.Line)
			}
			continue
		}
		g := &group{first: len(out), whole: f.whole, quiet: f.tagged}
		if p, ok := wholeElsewhere(f); ok {
			g.usedWhole, g.quiet = &p, false
		}
		if c.what == "application" {
			g.names, g.named = []string{f.global}, []int{f.Pos.Line}
		}
		groups[c] = g
		order = append(order, g)
		out = append(out, *f)
	}
	for _, g := range order {
		f := &out[g.first]
		c, _ := causeOf(f)
		switch f.Rule {
		case RuleDerivedKey:
			base := "KEYS[i]"
			if f.KeysIndex > 0 {
				base = "KEYS[" + strconv.Itoa(f.KeysIndex) + "]"
			}
			if len(g.lines) > 0 {
				f.Message += sprintf("; so are the keys this file derives from %s on %s", base, lineList(g.lines))
			}
			if !c.tagged {
				continue
			}
			f.Message += " (if every key and key prefix the scripts get carries the project's hash tag, say so with -keys-tagged or a \"-- slotlint:keys-tagged\" comment)"
		case RuleUndeclaredKey:
			f.others, f.base = g.others, f.Message
			f.whole = g.whole
			f.prefix = f.prefix && !g.whole && g.usedWhole == nil
			f.groupUndeclared(g.lines)
			if g.usedWhole != nil && !f.whole {
				f.Message += usedWholeNote(*g.usedWhole, f.Pos.File)
				f.tagged = false
			}
		case RuleUnpackWhole:
			switch len(g.lines) {
			case 0:
			case 1:
				f.Message = beforeAdvice(f.Message, sprintf("; so does its unpack on %s", lineList(g.lines)))
			default:
				f.Message = beforeAdvice(f.Message, sprintf("; so do its unpacks on %s", lineList(g.lines)))
			}
		case RuleMissingGlobal:
			if c.what == "application" {
				f.appGlobals = g.names
			}
			if len(g.names) > 1 {
				list := make([]string, len(g.names))
				for i, n := range g.names {
					list[i] = sprintf("%s (line %d)", n, g.named[i])
				}
				f.Message = sprintf("%d globals are read and never defined in this file: %s; Redis's script sandbox has none of them, and the script fails at the first with \"attempted to access nonexistent global variable '%s'\" (if the application prepends code that defines them, check with -prelude FILE or -globals NAME,...)",
					len(g.names), strings.Join(list, ", "), g.names[0])
			} else if len(g.lines) > 0 {
				f.Message += sprintf(" (read again on %s)", lineList(g.lines))
			}
		}
	}
	// A group -keys-tagged quiets whole is not printed; nor is a key it
	// quiets that is no cause's first (its cause is "": not grouped).
	kept := out[:0]
	for i, f := range out {
		if p, ok := wholeElsewhere(&f); ok && f.cause == "" {
			f.Message += usedWholeNote(p, f.Pos.File)
			kept = append(kept, f)
			continue
		}
		if f.tagged && (f.cause == "" || groups[cause{file: f.Pos.File, rule: f.Rule, what: f.cause}].quiet) {
			continue
		}
		kept = append(kept, out[i])
	}
	return kept
}

// groupUndeclared writes the message of a LUA201 finding that stands for
// the keys of its cause on lines too.
func (f *Finding) groupUndeclared(lines []int) {
	f.Message = f.base
	switch {
	case f.prefix:
		if len(lines) > 0 {
			f.Message += sprintf("; so are the keys this file builds from %s on %s: they share the declared keys' slot only if %s carries their hash tag", f.cause, lineList(lines), f.cause)
		} else {
			f.Message += sprintf("; it shares the declared keys' slot only if %s carries their hash tag", f.cause)
		}
		f.Message += " (if every key and key prefix the scripts get carries the project's hash tag, say so with -keys-tagged or a \"-- slotlint:keys-tagged\" comment)"
	case f.whole && strings.HasPrefix(f.cause, "ARGV["):
		if len(lines) > 0 {
			f.Message += sprintf("; so are the keys this file takes or builds from %s on %s", f.cause, lineList(lines))
		}
	case strings.HasPrefix(f.cause, "ARGV["):
		if len(lines) > 0 {
			f.Message += sprintf("; so are the keys this file builds from %s on %s", f.cause, lineList(lines))
		}
	case len(lines) > 0 && strings.HasPrefix(f.cause, "param "):
		name := strings.TrimPrefix(f.cause[:strings.LastIndexByte(f.cause, '@')], "param ")
		f.Message += sprintf("; so are the keys this file builds from %s on %s", name, lineList(lines))
	case len(lines) > 0 && strings.HasPrefix(f.cause, "reply@"):
		f.Message += sprintf("; so are the keys this file builds from the same reply on %s", lineList(lines))
	case len(lines) > 0:
		f.Message += sprintf("; so are the keys this file builds from the same data on %s", lineList(lines))
	}
	if f.whole {
		f.Message += wholeKeyNote
	}
}

// usedWholeNote says why -keys-tagged leaves a key built on a value that
// the check uses as a whole key elsewhere.
func usedWholeNote(p Position, file string) string {
	where := sprintf("on line %d", p.Line)
	if p.File != file {
		where = sprintf("at %s:%d", filepath.Base(p.File), p.Line)
	}
	return sprintf(" (-keys-tagged does not cover it: the same value is used as a whole key %s, so it may be another entity's key, under that entity's own tag; pass it in KEYS)", where)
}

// wholeKeyNote says why a whole key the caller passes in ARGV is reported
// even where the project vouches for its tags.
const wholeKeyNote = " (-keys-tagged does not cover a whole key passed in ARGV, only KEYS and the key prefixes the caller passes: it may be another entity's key, under that entity's own tag; pass it in KEYS)"

// lineList names lines for a message: "line 7", "lines 7, 9 and 12", the
// first ten of a longer list and how many more.
func lineList(lines []int) string {
	const shown = 10
	var b strings.Builder
	b.WriteString("line")
	if len(lines) > 1 {
		b.WriteString("s")
	}
	for i, l := range lines {
		if i == shown {
			b.WriteString(sprintf(" and %d more", len(lines)-shown))
			break
		}
		switch {
		case i == 0:
			b.WriteString(" ")
		case i == len(lines)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(l))
	}
	return b.String()
}

// andList joins names as a sentence does: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
