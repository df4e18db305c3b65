package luacheck

import (
	"bytes"
	"cmp"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Multi-file scripts: a prelude the application prepends (a helper file
// joined with each body at run time), and BullMQ-style include directives
//
//	--- @include "includes/addJob"
//
// which the library replaces with the named file (relative to the including
// file, ".lua" added when the name has no extension; each file once). The
// checker analyses the joined text, as Redis receives it, and maps each
// finding back to the file and line its code comes from.

// maxIncludes bounds the files one script may pull in (BullMQ's largest
// scripts include about 40).
const maxIncludes = 256

// segment: lines from..from+n-1 of the joined script are lines
// line..line+n-1 of file; off is the byte where line from starts.
type segment struct {
	from, n int
	file    string
	line    int
	off     int
}

type assembler struct {
	files *fileCache
	out   *bytes.Buffer
	segs  []segment
	lines int
	seen  map[string]bool
	found []Finding // unreadable includes
	// missing are the includes that do not exist, by including file, in
	// order: one finding per file names them all (missingFindings).
	missing map[string][]missingInclude
	order   []string
	gone    map[string]bool // paths that do not exist
}

func (a *assembler) missingAt(from string, m missingInclude) {
	if len(a.missing[from]) == 0 {
		a.order = append(a.order, from)
	}
	a.missing[from] = append(a.missing[from], m)
}

type missingInclude struct {
	line, col int
	path      string
}

// emit appends one line of file (without its line break).
func (a *assembler) emit(file string, line int, text []byte) {
	a.lines++
	if n := len(a.segs); n > 0 {
		s := &a.segs[n-1]
		if s.file == file && s.line+s.n == line && s.from+s.n == a.lines {
			s.n++
			a.out.Write(text)
			a.out.WriteByte('\n')
			return
		}
	}
	a.segs = append(a.segs, segment{from: a.lines, n: 1, file: file, line: line, off: a.out.Len()})
	a.out.Write(text)
	a.out.WriteByte('\n')
}

// add appends src (named file) from its line first on, resolving includes.
func (a *assembler) add(file string, src []byte, first int, includes bool) {
	line := 0
	for text := range bytes.Lines(src) {
		line++
		text = bytes.TrimRight(text, "\r\n")
		if line < first {
			continue
		}
		if name, ok := includeDirective(text); ok && includes {
			a.include(file, line, bytes.Index(text, []byte("@include"))+1, name)
			continue
		}
		a.emit(file, line, text)
	}
}

func (a *assembler) include(from string, line, col int, name string) {
	path := includedPath(from, name)
	fail := func(format string, args ...any) {
		a.found = append(a.found, Finding{Pos: Position{File: from, Line: line, Column: col}, Rule: RuleSyntax, Message: sprintf(format, args...)})
	}
	// One file however it is spelled ("./q/b.lua", "q/b.lua").
	key := filepath.Clean(path)
	switch {
	case a.seen[key]:
		if a.gone[key] {
			// Still missing here: the finding of this file names it too.
			a.missingAt(from, missingInclude{line, col, path})
		}
		return // included once, as the library does
	case len(a.seen) >= maxIncludes:
		fail("include %q not resolved: more than %d included files, the checker's bound", name, maxIncludes)
		return
	}
	a.seen[key] = true
	src, err := a.files.read(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			a.gone[key] = true
			a.missingAt(from, missingInclude{line, col, path})
		} else {
			fail("included file %s cannot be read: %v", path, err)
		}
		return
	}
	a.add(path, src, 1, true)
}

// includedPath is the file `--- @include "name"` in file from names,
// spelled the way from is: "./q/a.lua" includes "./q/includes/b.lua",
// not the "q/includes/b.lua" that filepath.Join leaves, so a finding in
// it names a path the user can open from where they ran the check.
func includedPath(from, name string) string {
	path := name
	if filepath.Ext(path) == "" {
		path += ".lua"
	}
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	path = filepath.Join(filepath.Dir(from), path)
	dot := "." + string(filepath.Separator)
	if strings.HasPrefix(from, dot) && !filepath.IsAbs(path) && path != ".." && !strings.HasPrefix(path, ".."+string(filepath.Separator)) {
		path = dot + path
	}
	return path
}

// includeDirective reads `--- @include "name"` (any number of dashes,
// single or double quotes).
func includeDirective(line []byte) (string, bool) {
	// Every line of every assembled file passes here: reject the lines
	// that are not directives before copying any text.
	if !bytes.Contains(line, []byte("@include")) {
		return "", false
	}
	s := strings.TrimSpace(string(line))
	if !strings.HasPrefix(s, "--") {
		return "", false
	}
	s = strings.TrimSpace(strings.TrimLeft(s, "-"))
	rest, ok := strings.CutPrefix(s, "@include")
	if !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	if len(rest) < 2 || (rest[0] != '"' && rest[0] != '\'') {
		return "", false
	}
	end := strings.IndexByte(rest[1:], rest[0])
	if end <= 0 {
		return "", false
	}
	return rest[1 : 1+end], true
}

// needsAssembly: the options or the text call for joining files.
func needsAssembly(src []byte, opts Options) bool {
	return opts.Prelude != "" || (opts.Includes && bytes.Contains(src, []byte("@include")))
}

// assemble joins the prelude, the script and its includes. A shebang
// stays on the first line.
//
// The joined text is in buf, which the caller returns to joinedPool once
// it is done with the text.
func assemble(src []byte, opts Options) (buf *bytes.Buffer, segs []segment, found []Finding) {
	buf = joinedPool.Get().(*bytes.Buffer)
	buf.Reset()
	a := &assembler{files: opts.files, out: buf, seen: map[string]bool{}, gone: map[string]bool{}, missing: map[string][]missingInclude{}}
	file := opts.Filename
	if file != "" {
		a.seen[filepath.Clean(file)] = true
	}
	first := 1
	if bytes.HasPrefix(bytes.TrimPrefix(src, []byte("\xEF\xBB\xBF")), []byte("#!")) {
		end := bytes.IndexByte(src, '\n')
		if end < 0 {
			end = len(src)
		}
		a.emit(file, 1, bytes.TrimRight(src[:end], "\r"))
		first = 2
	}
	if opts.Prelude != "" {
		a.add(opts.PreludeFile, []byte(opts.Prelude), 1, opts.Includes)
	}
	a.add(file, src, first, opts.Includes)
	return a.out, a.segs, append(a.found, a.missingFindings()...)
}

// joinedPool keeps the buffers scripts are assembled in: a BullMQ command
// with its helpers is tens of kilobytes, and growing a fresh buffer to
// that size for every script was a twentieth of what a run allocated.
var joinedPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// missingFindings reports the includes that do not exist once per
// including file, at the first of them: one wrong folder (a partial copy
// of BullMQ's commands) is one problem, not one per line.
func (a *assembler) missingFindings() []Finding {
	var out []Finding
	for _, from := range a.order {
		ms := a.missing[from]
		msg := sprintf("included file %s does not exist: the script cannot be assembled", ms[0].path)
		if len(ms) > 1 {
			names := make([]string, len(ms))
			for i, m := range ms {
				names[i] = sprintf("%s (line %d)", m.path, m.line)
			}
			msg = sprintf("%d included files do not exist: %s; the script cannot be assembled", len(ms), strings.Join(names, ", "))
		}
		out = append(out, Finding{Pos: Position{File: from, Line: ms[0].line, Column: ms[0].col}, Rule: RuleSyntax, Message: msg})
	}
	return out
}

// mapBack rewrites a position of the joined script to its file and line.
func mapBack(p Position, segs []segment) Position {
	i, found := slices.BinarySearchFunc(segs, p.Line, func(s segment, line int) int {
		switch {
		case line < s.from:
			return 1
		case line >= s.from+s.n:
			return -1
		}
		return 0
	})
	if !found {
		if i > 0 {
			i--
		}
		if i >= len(segs) {
			return p
		}
	}
	s := segs[i]
	p.File = s.file
	p.Line = s.line + min(max(p.Line-s.from, 0), s.n-1)
	return p
}

// analyzeJoined analyses the assembled script and maps the result back.
func analyzeJoined(src []byte, opts Options) *Result {
	buf, segs, found := assemble(src, opts)
	// Nothing of the result refers to the joined text: the buffer can
	// serve the next script once the analysis is done.
	defer joinedPool.Put(buf)
	joined := buf.Bytes()
	inner := opts
	inner.Prelude, inner.Includes, inner.files = "", false, nil
	// The names a missing file defines are unknown: the LUA001 finding
	// says the script cannot be assembled, and reporting each name it
	// would have defined as LUA302 says the same again (namesElsewhere).
	inner.includeMissing = len(found) > 0
	inner.segments = &segs
	if opts.files != nil {
		inner.splice = &splice{segs: segs, files: opts.files}
	}
	res := Analyze(joined, inner)
	for i := range res.Findings {
		res.Findings[i].Pos = mapBack(res.Findings[i].Pos, segs)
	}
	for i := range res.Keys {
		res.Keys[i].Pos = mapBack(res.Keys[i].Pos, segs)
	}
	for i := range res.Functions {
		res.Functions[i].Pos = mapBack(res.Functions[i].Pos, segs)
	}
	res.Findings = append(res.Findings, found...)
	slices.SortStableFunc(res.Findings, func(a, b Finding) int {
		return cmp.Or(strings.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Column, b.Pos.Column), strings.Compare(a.Rule, b.Rule))
	})
	return res
}
