package luacheck

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"

	"github.com/slotlint/slotlint/slot"
)

// Default limits. Real Redis scripts are a few kilobytes; Lua 5.1 itself
// refuses more than 200 nested syntax levels ("chunk has too many syntax
// levels"), so deeper input is an error in Redis too.
const (
	DefaultMaxBytes = 4 << 20
	DefaultMaxDepth = 200
	// maxTreeDepth bounds the syntax tree the checker walks, recursively
	// in places: left-associative chains and elseif chains nest in the
	// tree without raising Lua's level.
	maxTreeDepth = 5000
)

// Options describe how a script is called.
type Options struct {
	// Filename is used in positions.
	Filename string
	// NumKeys is the number of keys the script is called with, when
	// KeysKnown. Only LUA203 depends on it.
	NumKeys   int
	KeysKnown bool
	// Function checks a Redis 7 Functions library (FUNCTION LOAD): it must
	// start with "#!lua name=...", KEYS and ARGV are the callbacks'
	// parameters, and there are no KEYS/ARGV globals.
	Function bool
	// ReadOnly: the script runs with EVAL_RO, EVALSHA_RO or FCALL_RO.
	ReadOnly bool
	// ArgLoops also reports loops over the request's own arguments (#KEYS,
	// #ARGV, ipairs(KEYS), a list decoded from ARGV or from a KEYS
	// element) as LUA102. They cost
	// what the request asks for, like a variadic command, so by default
	// they are quiet.
	ArgLoops bool
	// ReturnedReads also reports a whole-collection read the script
	// returns as its reply as it is (return redis.call('SMEMBERS', k), or
	// one field of a returned table). The caller asked for the whole
	// collection: the read costs what the same command sent by itself
	// does, which no rule reports, so by default it is quiet.
	ReturnedReads bool
	// KeysTagged: the project guarantees the keys it passes as KEYS[i]
	// and the key prefixes it passes in ARGV carry the script's hash tag
	// (a queue library whose prefix is "{queue}"), so a key derived from
	// KEYS[i] with no "{" before it shares its slot and LUA202 is quiet,
	// and so is LUA201 for a key built on a prefix from ARGV (ARGV[n] or a
	// field decoded from it, followed by more text). A whole key passed
	// in ARGV is still LUA201, and so are the keys built on a value the
	// script uses whole, in the same file or another it includes (a
	// helper's parentKey .. ":processed" where the includer checks EXISTS
	// parentKey): it may be another entity's key (a parent job in another
	// queue), under that entity's own tag. Keys read from
	// stored data are still LUA201. A "-- slotlint:keys-tagged" comment
	// in the script says the same.
	KeysTagged bool
	// Prelude is text prepended to the script before checking (a helper
	// file the application joins with each body), read from PreludeFile;
	// findings in it are reported there.
	Prelude     string
	PreludeFile string
	// Includes resolves BullMQ-style `--- @include "name"` lines, relative
	// to Filename, before checking.
	Includes bool
	// Globals are names defined elsewhere (by a prelude the checker does
	// not see), separated by commas: reading or assigning them is not a
	// finding. (A string keeps Options comparable, for Cache.)
	Globals string
	// MaxBytes and MaxDepth cap the input; zero means the default.
	MaxBytes int
	MaxDepth int

	// includeMissing: the script was assembled without an include that
	// could not be read.
	includeMissing bool
	// files, when set, reads included files once for a whole run
	// (CheckFiles): BullMQ's commands include the same helpers dozens of
	// times.
	files *fileCache
	// findingsOnly: the caller reads only Result.Findings (Check): no
	// Hash, no Keys.
	findingsOnly bool
	// keepTagged: Analyze keeps the findings -keys-tagged quiets (keys
	// built on a prefix from ARGV), for Check, which prints them only
	// when the script also uses their cause, or their root, as a whole
	// key (see whole and root).
	// Analyze alone judges each key by itself and drops them.
	keepTagged bool
	// splice, when set, builds the assembled script's tokens and tree
	// from pieces parsed once per run (splice.go).
	splice *splice
	// segments map the lines of an assembled script to the files they
	// come from (includedElsewhere); a pointer keeps Options comparable.
	segments *[]segment
}

// Position is a place in a script. Line and Column are 1-based; Column is 0
// when it could not be recovered.
type Position struct {
	File   string
	Line   int
	Column int
}

func (p Position) String() string {
	file := p.File
	if file == "" {
		file = "-"
	}
	if p.Column > 0 {
		return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Column)
	}
	return fmt.Sprintf("%s:%d", file, p.Line)
}

// Finding is one diagnostic.
type Finding struct {
	Pos     Position
	Rule    string // stable rule ID, e.g. "LUA201"
	Message string

	// Command is the Redis command the finding is about, upper case, when
	// there is one.
	Command string
	// Key is the key argument the finding is about (LUA201, LUA202), with
	// holes "KEYS[i]" and "ARGV[i]" that a caller can bind with
	// slot.Key.Substitute. HasKey says whether it is set.
	Key    slot.Key
	HasKey bool
	// KeysIndex is the 1-based KEYS index a LUA202 key derives from or a
	// LUA203 read names; 0 when none.
	KeysIndex int
	// Function is the registered function the finding is in (Functions
	// libraries), "" otherwise.
	Function string

	// global is the name a LUA302 finding reads, up to its first dot;
	// appGlobals are the names of a LUA302 finding on names the
	// application would define (not standard ones), all of the file's.
	global     string
	appGlobals []string
	// cause is what decides a LUA201 key's slot, shared by every key of
	// the file it decides (see undeclaredCause); "" when the key is its
	// own cause.
	cause string
	// others are the places of the findings of the same cause merged
	// into this one (LUA201), and base its message before it named them.
	others []Position
	base   string
	// prefix: the cause is a key prefix the caller passes in ARGV, which
	// -keys-tagged covers.
	prefix bool
	// whole: the key is a whole key the caller passes in ARGV (ARGV[n]
	// itself or a field decoded from it), not one built on a prefix:
	// -keys-tagged does not cover it, since it may name another entity
	// (a parent job in another queue) under that entity's own tag, nor
	// the keys the file builds on the same value.
	whole bool
	// tagged: a key built on a prefix from ARGV under -keys-tagged,
	// quiet unless the file uses its cause as a whole key too, or the
	// check uses its root as one in another file.
	tagged bool
	// root names the value that decides the key's slot across the files
	// of one check (rootOf): ARGV[n], or where the data was decoded.
	root string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s %s", f.Pos, f.Rule, f.Message)
}

// KeyUse is one key argument of one redis.call/pcall the checker could
// locate, with the key as far as it is known statically.
type KeyUse struct {
	Pos      Position
	Command  string
	Key      slot.Key
	Function string // registered function, for libraries
}

// CommandUse sums up the commands a script (or one registered function)
// runs.
type CommandUse struct {
	Calls   int
	MayKeys bool
}

// Function is a function a library registers.
type Function struct {
	Name  string
	Flags []string
	Pos   Position
}

// Result is everything the checker learned from one script. It does not
// depend on Options.NumKeys except for the LUA203 findings, so callers that
// check one script for many call sites can analyse it once (keyed by Hash)
// and use MaxKeysIndex and Keys per call site.
type Result struct {
	Hash     [32]byte
	Findings []Finding
	// Flags and Name come from the "#!lua" line.
	Flags []string
	Name  string
	// MaxKeysIndex is the highest literal n of a KEYS[n] read; zero when
	// none. DynamicKeys is true when KEYS is read with a computed index,
	// by length, or as a whole (unpack, ipairs).
	MaxKeysIndex int
	DynamicKeys  bool
	// KeysRead lists the literal n of every KEYS[n] read, ascending, so a
	// caller can tell which passed keys the script ignores.
	KeysRead []int
	// Keys are the key arguments of every command call found.
	Keys []KeyUse
	// Commands counts the redis.call/pcall calls found, by registered
	// function ("" outside one), and says whether any of them may touch a
	// key: a command with key positions, or one whose name or arguments
	// are not known.
	Commands  map[string]CommandUse
	Functions []Function
	// Checked is false when the script could not be analysed (syntax
	// error, over a limit); Findings then say why.
	Checked bool
	// header are the locals the file declares when it is a header
	// (headerNames): nothing else at its top level.
	header []string
}

// Check analyses a script and returns its findings sorted by position.
//
// A function analysed once per call site can give one rule at one spot
// several times, with messages that differ by the keys each caller passes:
// Check reports it once, at the function, saying how many other calls
// give it too. (Analyze keeps each, for callers that bind keys per call.)
//
// Check also speaks once per cause where Analyze speaks once per place:
// a file that is no Redis script gets one finding saying so, every key
// derived from one KEYS[i] is one LUA202 finding at the first, and every
// read of one missing global one LUA302 finding at the first read, each
// naming the other lines.
func Check(src []byte, opts Options) []Finding {
	fs, _ := check(src, opts)
	return fs
}

// check is Check, and the names the file declares when it is a header
// (headerNames).
func check(src []byte, opts Options) ([]Finding, []string) {
	// Only the findings leave Check: the script's hash is not needed
	// (hashing the text was 3% of a run over the real-world set), nor the
	// list of key uses (a fortieth of the bytes a run allocated).
	opts.findingsOnly, opts.keepTagged = true, true
	res := Analyze(src, opts)
	fs := collapse(res.Findings)
	if f, ok := notAScript(res, fs); ok {
		return []Finding{f}, nil
	}
	return groupCauses(fs), res.header
}

// beforeAdvice adds clause to msg before the parenthesis that ends it (the
// advice, "(read a page with LIMIT/COUNT ...)"), or at its end: a note in
// parentheses of its own beside the advice, or beside one groupCauses
// adds, would print ") (".
func beforeAdvice(msg, clause string) string {
	if !strings.HasSuffix(msg, ")") {
		return msg + clause
	}
	depth := 0
	for i := len(msg) - 1; i >= 0; i-- {
		switch msg[i] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				if i > 0 && msg[i-1] == ' ' {
					return msg[:i-1] + clause + msg[i-1:]
				}
				return msg + clause
			}
		}
	}
	return msg + clause
}

// collapse merges findings of one rule at one position, which sorting
// has made adjacent. It reuses fs's array: a helper analysed for each of
// its callers gives each finding once per caller, and a copy of the list
// was a fortieth of the bytes a run over the real-world set allocated.
func collapse(fs []Finding) []Finding {
	out := fs[:0]
	extra := 0
	flush := func() {
		if extra > 0 {
			last := &out[len(out)-1]
			last.Message = beforeAdvice(last.Message, sprintf("; the same for %d other call%s of this code", extra, plural(extra)))
		}
		extra = 0
	}
	for _, f := range fs {
		if n := len(out); n > 0 && out[n-1].Pos == f.Pos && out[n-1].Rule == f.Rule {
			// A call that -keys-tagged quiets here does not stand for
			// one that it does not.
			switch {
			case f.tagged && !out[n-1].tagged:
			case out[n-1].tagged && !f.tagged:
				out[n-1] = f
			default:
				extra++
			}
			continue
		}
		flush()
		out = append(out, f)
	}
	flush()
	return out
}

// Analyze parses the script once and runs every rule.
func Analyze(src []byte, opts Options) *Result {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if needsAssembly(src, opts) {
		return analyzeJoined(src, opts)
	}
	res := &Result{}
	if !opts.findingsOnly {
		res.Hash = sha256.Sum256(src)
	}
	c := &checker{opts: opts, res: res}
	c.run(src)
	c.applySuppressions()
	if !opts.keepTagged {
		res.Findings = slices.DeleteFunc(res.Findings, func(f Finding) bool { return f.tagged })
	}
	slices.SortStableFunc(res.Findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Column, b.Pos.Column), strings.Compare(a.Rule, b.Rule))
	})
	return res
}

// checker holds the state of one Analyze call.
type checker struct {
	opts Options
	res  *Result
	src  []byte
	toks tokens
	// lastLine is lastLine(src), once src is set.
	lastLine int
	seen     map[findingID]struct{} // dedup of findings
	flags    scriptFlags
	// params names the function parameters that are the place (value.at)
	// of the stored or request data they hold, for LUA201's messages.
	params map[uint32]string
}

// findingID is what makes two findings the same for report.
type findingID struct {
	line, col     int
	rule, message string
}

type scriptFlags struct {
	noWrites, allowCrossSlot, noCluster bool
}

// report adds a finding unless an identical one is already there (a local
// function analysed once per call site reports its body's problems once).
func (c *checker) report(f Finding) {
	f.Pos.File = c.opts.Filename
	if c.src != nil {
		// The scanner counts a lone '\r' as a line break; keep positions
		// inside the file as editors count lines.
		if last := c.lastLine; f.Pos.Line > last {
			f.Pos.Line, f.Pos.Column = last, 1
		}
	}
	id := findingID{f.Pos.Line, f.Pos.Column, f.Rule, f.Message}
	if _, dup := c.seen[id]; dup {
		return
	}
	if c.seen == nil {
		c.seen = map[findingID]struct{}{}
	}
	c.seen[id] = struct{}{}
	c.res.Findings = append(c.res.Findings, f)
}

// reportAt reports rule at line, with the column of the first token on that
// line spelled anchor (best effort: gopher-lua's AST has no columns).
func (c *checker) reportAt(line int, anchor, rule, format string, args ...any) {
	c.report(Finding{
		Pos:     Position{Line: line, Column: c.toks.column(line, anchor)},
		Rule:    rule,
		Message: fmt.Sprintf(format, args...),
	})
}

// reportCol reports rule at a known line and column.
func (c *checker) reportCol(line, col int, rule, format string, args ...any) {
	c.report(Finding{Pos: Position{Line: line, Column: col}, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

func (c *checker) run(src []byte) {
	if len(src) > c.opts.MaxBytes {
		c.reportCol(1, 1, RuleSyntax, "script not checked: it is %d bytes, over the limit of %d", len(src), c.opts.MaxBytes)
		return
	}
	// The pieces are numbered in the text as assembled: a byte order
	// mark or shebang that prepare strips or blanks rules them out.
	sp := c.opts.splice
	if bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) || bytes.HasPrefix(src, []byte("#!")) {
		sp = nil
	}
	src = c.prepare(src)
	if !c.opts.KeysTagged && bytes.Contains(src, []byte(keysTaggedDirective)) {
		c.opts.KeysTagged = hasKeysTaggedComment(src)
	}
	if c.opts.Function && c.res.Name == "" && !c.hasFinding(RuleSyntax) {
		c.reportCol(1, 1, RuleSyntax, `a function library must start with "#!lua name=<library>" (FUNCTION LOAD fails with "Missing library metadata")`)
	}
	c.src, c.lastLine = src, lastLine(src)
	buf := tokenPool.Get().(*[]token)
	defer func() {
		*buf = c.toks.list[:0]
		c.toks = tokens{}
		tokenPool.Put(buf)
	}()
	var (
		toks    tokens
		deep    deepAt
		chunk   []ast.Stmt
		spliced bool
	)
	if sp != nil {
		var list []token
		list, chunk, spliced = sp.build(src, c.opts.MaxDepth, *buf)
		toks = tokens{src: src, list: list}
	}
	if !spliced {
		toks, deep = scanTokens(src, c.opts.MaxDepth, *buf)
	}
	c.toks = toks
	if deep.tooMany {
		c.reportCol(1, 1, RuleSyntax, "script not checked: it has more than %d tokens, the checker's bound (Redis may accept it)", maxTokens)
		return
	}
	if deep.line > 0 {
		c.reportAt(deep.line, "", RuleSyntax, "script not checked: nesting deeper than %d levels (Lua 5.1 refuses more than 200 syntax levels)", c.opts.MaxDepth)
		return
	}
	var err error
	if !spliced {
		chunk, err = parseChunk(src, c.opts.Filename)
	}
	if err != nil {
		if !c.template() {
			c.syntaxError(err)
		}
		return
	}
	line, tooDeep, closureWrites, names := walkChunk(chunk, maxTreeDepth)
	if tooDeep {
		c.reportAt(line, "", RuleSyntax, "script not checked: its syntax tree nests deeper than %d levels, the checker's bound (Lua may accept it: a chain such as a + b + c or elseif ... elseif counts as one level there)", maxTreeDepth)
		return
	}
	c.checkNewSyntax()
	if limits := checkLimits(chunk); len(limits) > 0 {
		for _, l := range limits {
			c.reportAt(l.line, l.name, RuleSyntax, "%s", l.msg)
		}
		return
	}
	c.res.Checked = true
	if !spliced {
		c.res.header = headerNames(chunk)
	}
	in := newInterp(c)
	in.unreferenced = unreferencedFunctions(chunk, names)
	if c.opts.includeMissing || isFragment(chunk) {
		in.namesElsewhere = 1
	}
	in.runChunk(chunk, closureWrites)
}

func (c *checker) hasFinding(rule string) bool {
	for _, f := range c.res.Findings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

var tokenPool = sync.Pool{New: func() any { return new([]token) }}

var readerPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4096) }}

// parseChunk runs gopher-lua's parser, which reports errors by panicking
// inside; Parse recovers error values only, so anything else is recovered
// here rather than crashing the caller.
func parseChunk(src []byte, name string) (chunk []ast.Stmt, err error) {
	defer func() {
		if r := recover(); r != nil {
			chunk, err = nil, fmt.Errorf("parser failed: %v", r)
		}
	}()
	// gopher-lua wraps its reader in a 4 KiB bufio.Reader unless it already
	// is one that large: reuse one across calls.
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(bytes.NewReader(src))
	defer readerPool.Put(br)
	chunk, err = parse.Parse(br, name)
	if err == nil && chunk == nil {
		// Parse swallows non-error panics and returns neither.
		return nil, errors.New("parser failed")
	}
	return chunk, err
}

func (c *checker) syntaxError(err error) {
	var pe *parse.Error
	if errors.As(err, &pe) {
		line, col := pe.Pos.Line, pe.Pos.Column
		near := ""
		msg := pe.Message
		if line == parse.EOF || line <= 0 {
			line, col = lastLine(c.src), 1
			near = " at the end of the script"
			if msg == "syntax error" {
				msg = "a block or an expression is not closed"
			}
		} else if pe.Token != "" {
			near = fmt.Sprintf(" near %q", pe.Token)
		}
		c.report(Finding{Pos: Position{Line: line, Column: max(col, 1)}, Rule: RuleSyntax,
			Message: fmt.Sprintf("syntax error%s: %s", near, msg)})
		return
	}
	c.reportAt(1, "", RuleSyntax, "syntax error: %s", strings.TrimSpace(err.Error()))
}

// prepare strips a UTF-8 byte order mark and blanks a "#!lua" first line
// (keeping the newline so line numbers stay right), recording its flags.
func (c *checker) prepare(src []byte) []byte {
	src = bytes.TrimPrefix(src, []byte("\xEF\xBB\xBF"))
	if !bytes.HasPrefix(src, []byte("#!")) {
		return src
	}
	end := bytes.IndexByte(src, '\n')
	if end < 0 {
		end = len(src)
	}
	c.parseShebang(string(bytes.TrimRight(src[:end], "\r")))
	out := make([]byte, len(src))
	copy(out, src)
	for i := 0; i < end; i++ {
		if out[i] != '\r' {
			out[i] = ' '
		}
	}
	return out
}

// knownFlags are the script flags Redis 7.0 accepts in a shebang.
var knownFlags = map[string]bool{
	"no-writes": true, "allow-oom": true, "allow-stale": true,
	"no-cluster": true, "allow-cross-slot-keys": true,
}

// parseShebang reads "#!lua flags=a,b" (EVAL) or "#!lua name=lib" (a
// library), reporting what Redis 7.0 refuses with its own wording.
func (c *checker) parseShebang(line string) {
	// Findings on the shebang point at the offending word.
	at := func(word string) int { return strings.Index(line, word) + 1 }
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "#!lua" {
		engine := strings.TrimPrefix(strings.Fields(line + " x")[0], "#!")
		c.reportCol(1, 1, RuleSyntax, "unknown script engine %q in the shebang (Redis only knows \"lua\")", engine)
		return
	}
	for _, f := range fields[1:] {
		switch {
		case strings.HasPrefix(f, "flags="):
			if c.opts.Function {
				c.reportCol(1, at(f), RuleSyntax, "a library shebang takes no flags: flags are set per function in redis.register_function")
				continue
			}
			for _, fl := range strings.Split(strings.TrimPrefix(f, "flags="), ",") {
				if fl == "" {
					continue
				}
				if !knownFlags[fl] {
					c.reportCol(1, at(f), RuleSyntax, "unexpected flag %q in the script shebang (Redis refuses the script)", fl)
					continue
				}
				c.res.Flags = append(c.res.Flags, fl)
				switch fl {
				case "no-writes":
					c.flags.noWrites = true
				case "allow-cross-slot-keys":
					c.flags.allowCrossSlot = true
				case "no-cluster":
					c.flags.noCluster = true
				}
			}
		case strings.HasPrefix(f, "name=") && c.opts.Function:
			c.res.Name = strings.TrimPrefix(f, "name=")
		default:
			c.reportCol(1, at(f), RuleSyntax, "unknown option %q in the shebang (Redis refuses the script)", f)
		}
	}
}

const keysTaggedDirective = "slotlint:keys-tagged"

// hasKeysTaggedComment: a line that is a comment naming the directive.
func hasKeysTaggedComment(src []byte) bool {
	for line := range bytes.Lines(src) {
		line = bytes.TrimSpace(line)
		if bytes.HasPrefix(line, []byte("--")) && bytes.HasPrefix(bytes.TrimLeft(line[2:], "-[ \t"), []byte(keysTaggedDirective)) {
			return true
		}
	}
	return false
}

// KeysFromFilename reads the number of keys from a "name-N.lua" file name,
// the convention of job-queue libraries that ship one script per file
// (e.g. "moveToActive-11.lua" takes 11 keys).
func KeysFromFilename(path string) (int, bool) {
	base := path
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	base, ok := strings.CutSuffix(base, ".lua")
	if !ok {
		return 0, false
	}
	i := strings.LastIndexByte(base, '-')
	if i <= 0 || i == len(base)-1 || len(base)-i > 5 {
		return 0, false
	}
	n := 0
	for _, c := range base[i+1:] {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// IsLibrary reports whether src starts like a Functions library
// ("#!lua name=..."), after an optional byte order mark.
func IsLibrary(src []byte) bool {
	src = bytes.TrimPrefix(src, []byte("\xEF\xBB\xBF"))
	if !bytes.HasPrefix(src, []byte("#!lua ")) {
		return false
	}
	line := src
	if i := bytes.IndexByte(src, '\n'); i >= 0 {
		line = src[:i]
	}
	for _, f := range strings.Fields(string(line))[1:] {
		if strings.HasPrefix(f, "name=") {
			return true
		}
	}
	return false
}

// lastLine is the number of the script's last non-empty line.
func lastLine(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return max(n, 1)
}
