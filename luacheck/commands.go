package luacheck

import (
	"strings"

	"github.com/yuin/gopher-lua/ast"

	"github.com/slotlint/slotlint/internal/rediscmd"
	"github.com/slotlint/slotlint/slot"
)

// command models redis.call/redis.pcall(name, args...): it runs the
// command rules (LUA103, LUA2xx, LUA4xx) and returns the reply.
func (in *interp) command(line int, via string, args []value) value {
	namePos := in.namePos
	in.namePos = Position{}
	in.work++
	reply := value{kind: kReply, src: fromReply, direct: true}
	mayKeys := true
	defer func() { in.countCommand(mayKeys) }()
	if len(args) == 0 || args[0].kind != kString {
		return reply
	}
	name, ok := args[0].literalText()
	if !ok {
		return reply
	}
	// argv stops at a spread argument (unpack(KEYS), ...): its length is
	// unknown, so only positions before it can be judged.
	argv := make([]rediscmd.Arg, 0, len(args))
	spread := false
	var spreadVal value
	for _, a := range args {
		if a.spread {
			spread, spreadVal = true, a
			break
		}
		t, ok := a.literalText()
		argv = append(argv, rediscmd.Arg{Text: t, Known: ok})
	}
	upper := strings.ToUpper(name)
	reply.cmd = upper
	cmd := rediscmd.Resolve(argv)
	if cmd == nil {
		return reply
	}
	reply.maybeNil = nilBulk[cmd.Name] && !listedRead(cmd.Name, args)
	reply.size = sizeCommands[cmd.Name]
	mayKeys = spread || hasKeySpecs(cmd)
	call := commandCall{line: line, name: upper, anchor: name, cmd: cmd, argv: argv, args: args[:len(argv)], spread: spread, spreadVal: spreadVal}
	if p := namePos; p.Line > 0 {
		call.line, call.col = p.Line, p.Column
	} else {
		call.col = in.c.toks.column(line, name)
	}
	reply.at = placeOf(call.line, call.col)
	if paged := pagedRead(call); paged != "" && len(in.loops) > 0 {
		// The innermost loop pages; a cursor read names the loop over a
		// page read inside it.
		l := in.loops[len(in.loops)-1]
		if l.paged == "" || popCommands[l.paged] || scanCommands[call.cmd.Name] {
			l.paged = paged
		}
	}
	in.commandClass(call)
	if in.wholeRead(call) {
		// A loop over this reply runs once per item of the collection.
		reply.src |= fromWholeRead
	} else if callerRange(call) {
		// A loop over it runs once per item the caller asks for.
		reply.src |= fromCallerRange
	}
	in.keyArgs(call)
	in.spreadKeys(call)
	return reply
}

// countCommand adds one command call to the script's (or the registered
// function's) CommandUse.
func (in *interp) countCommand(mayKeys bool) {
	if in.c.res.Commands == nil {
		in.c.res.Commands = map[string]CommandUse{}
	}
	u := in.c.res.Commands[in.frame.fnName]
	u.Calls++
	u.MayKeys = u.MayKeys || mayKeys
	in.c.res.Commands[in.frame.fnName] = u
}

// hasKeySpecs reports whether a command has key positions (or, for the
// commands that take a key count, may have them).
func hasKeySpecs(cmd *rediscmd.Command) bool {
	for _, spec := range cmd.KeySpecs {
		if spec.Flags&rediscmd.KeyNotKey == 0 {
			return true
		}
	}
	return false
}

// commandCall is one resolved redis.call as the rules see it.
type commandCall struct {
	line, col int    // of the command name
	name      string // as called, upper case
	anchor    string // the command name as written, to find its column
	cmd       *rediscmd.Command
	argv      []rediscmd.Arg
	args      []value
	spread    bool  // more arguments of unknown number follow argv
	spreadVal value // what they are (unpack(ARGV), ...)
}

func (in *interp) reportCall(c commandCall, rule, format string, args ...any) {
	f := Finding{
		Pos:      Position{Line: c.line, Column: c.col},
		Rule:     rule,
		Message:  sprintf(format, args...),
		Command:  c.cmd.Name,
		Function: in.frame.fnName,
	}
	in.c.report(f)
}

// hasArg reports whether a known optional argument equals word, and
// whether some optional argument is unknown (and could be it). Optional
// arguments start after the fixed ones the command's arity demands
// (ZRANGEBYSCORE key min max [LIMIT ...]).
func (c commandCall) hasArg(word string) (found, maybe bool) {
	return c.hasArgFrom(max(1, abs(c.cmd.Arity)), word)
}

// limitCount is the index of the count in "LIMIT offset count", 0 when
// the call has no such literal LIMIT with a count in its arguments.
func (c commandCall) limitCount() int {
	for i := max(1, abs(c.cmd.Arity)); i+2 < len(c.argv) && i+2 < len(c.args); i++ {
		if c.argv[i].Known && strings.EqualFold(c.argv[i].Text, "LIMIT") {
			return i + 2
		}
	}
	return 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func (c commandCall) hasArgFrom(from int, word string) (found, maybe bool) {
	if from >= len(c.argv) {
		return false, c.spread
	}
	for _, a := range c.argv[from:] {
		if !a.Known {
			maybe = true
			continue
		}
		if strings.EqualFold(a.Text, word) {
			return true, false
		}
	}
	return false, maybe || c.spread
}

// commandClass runs LUA401, LUA402 and LUA403 from the command table's
// flags and ACL categories.
func (in *interp) commandClass(c commandCall) {
	cmd := c.cmd
	switch {
	case cmd.Has(rediscmd.FlagNoscript):
		// Redis refuses "noscript" commands in scripts; the blocking ones
		// (BLPOP, BRPOP, BLMOVE, BZPOPMIN, ...) are all flagged so.
		why := ""
		if cmd.Has(rediscmd.FlagBlocking) {
			why = " (a script cannot block)"
		}
		in.reportCall(c, RuleNoScript, "%s cannot run in a script%s: Redis refuses it with \"This Redis command is not allowed from script\"", cmd.Name, why)
		return
	case cmd.Has(rediscmd.FlagBlocking):
		// Blocking commands without "noscript" run in scripts as their
		// non-blocking forms; XREAD/XREADGROUP block only with BLOCK,
		// which Redis refuses in a script.
		if cmd.Name == "XREAD" || cmd.Name == "XREADGROUP" {
			if found, _ := c.hasArgFrom(1, "BLOCK"); found {
				in.reportCall(c, RuleNoScript, "%s with BLOCK cannot run in a script: Redis refuses it with \"%s command is not allowed with BLOCK option from scripts\"", cmd.Name, cmd.Name)
			}
			return
		}
		in.reportCall(c, RuleNoScript, "%s never blocks in a script: Redis runs it without waiting, so it returns nil at once when there is nothing to pop", cmd.Name)
		return
	}
	if dangerous(c) {
		in.reportCall(c, RuleDangerous, "%s", dangerReason(cmd))
	}
	if cmd.Has(rediscmd.FlagWrite) && in.frame.noWrites {
		in.reportCall(c, RuleWriteInReadOnly, "%s writes, but the script is read-only (%s): Redis refuses it with \"Write commands are not allowed from read-only scripts\"", cmd.Name, in.readOnlyWhy())
	}
}

func (in *interp) readOnlyWhy() string {
	switch {
	case in.c.opts.ReadOnly:
		return "called with EVAL_RO/FCALL_RO"
	case in.frame.fnName != "":
		return "function " + in.frame.fnName + " has flag no-writes"
	}
	return "flags=no-writes"
}

// dangerous is Redis's own judgement: ACL category @dangerous or the admin
// flag, for commands scripts can run at all, less three argument patterns
// checked on a real cluster. SORT and SORT_RO are @dangerous for their BY
// and GET patterns, which read keys the script was not given; BY with a
// pattern without "*" (BY nosort) skips sorting, reads nothing and runs on
// a cluster, while any GET, even "GET #", is refused there. RESTORE writes
// only its key argument, which LUA201/LUA202 judge like any other key.
func dangerous(c commandCall) bool {
	cmd := c.cmd
	if !cmd.InACL(rediscmd.ACLDangerous) && !cmd.Has(rediscmd.FlagAdmin) {
		return false
	}
	switch cmd.Name {
	case "SORT", "SORT_RO":
		return c.sortReadsOthers()
	case "RESTORE":
		return false
	}
	return true
}

// sortReadsOthers: SORT may have a GET, or a BY whose pattern may contain
// "*" (read from other keys); BY with a known pattern without "*" only
// skips the sort. An unknown word where an option may stand may be either.
func (c commandCall) sortReadsOthers() bool {
	if len(c.argv) < 2 {
		return c.spread
	}
	for i := 2; i < len(c.argv); i++ {
		a := c.argv[i]
		if !a.Known {
			return true // may be BY, or the pattern after it
		}
		switch strings.ToUpper(a.Text) {
		case "BY":
			if i+1 >= len(c.argv) {
				return c.spread
			}
			next := c.argv[i+1]
			if !next.Known || strings.Contains(next.Text, "*") {
				return true
			}
			i++
		case "GET":
			return true
		case "STORE":
			i++ // its argument is a key, not an option
		case "LIMIT":
			i += 2
		}
	}
	return c.spread
}

func dangerReason(cmd *rediscmd.Command) string {
	switch cmd.Name {
	case "KEYS":
		return "KEYS in a script is @dangerous: it walks the whole keyspace while the server is blocked, and on a cluster sees only one node's keys"
	case "FLUSHALL", "FLUSHDB":
		return cmd.Name + " in a script is @dangerous: it deletes every key of the node, not only the script's keys"
	case "SORT", "SORT_RO":
		return cmd.Name + " with a BY pattern or GET is @dangerous in a script: the patterns read keys that were not passed in KEYS, and a cluster refuses them (\"BY option of SORT denied in Cluster mode\"; BY nosort is fine)"
	}
	cat := "@dangerous"
	if !cmd.InACL(rediscmd.ACLDangerous) {
		cat = "an administrative command"
	}
	return cmd.Name + " is " + cat + " and does not belong in a script: it acts on the whole server, not on the script's keys"
}

// wholeRead is LUA103 for single commands: reads of a whole collection or
// of the keyspace, whose cost grows with the data. These are argument
// patterns, which the command table does not describe, so they are listed.
// It reports whether the reply holds the whole collection.
func (in *interp) wholeRead(c commandCall) bool {
	if in.replyCall != nil && in.scriptReply[in.replyCall] && !in.c.opts.ReturnedReads {
		// The script's reply is the read: the caller asked for the
		// collection, as it would with the command alone. Nothing in
		// the script uses the reply after it.
		return false
	}
	name := c.cmd.Name
	switch name {
	case "SMEMBERS", "HGETALL", "HKEYS", "HVALS":
		in.reportCall(c, RuleWholeRead, "%s reads the whole collection: its cost grows with the data and blocks the server (use %s with COUNT in a bounded loop, or keep the collection bounded)", name, scanFor(name))
		return true
	case "SUNION", "SINTER", "SDIFF":
		in.reportCall(c, RuleWholeRead, "%s reads whole sets: its cost grows with the data and blocks the server", name)
		return true
	case "KEYS":
		// KEYS is LUA401, whose message says it walks the whole keyspace:
		// one finding at one spot. Its reply is still the whole keyspace.
		return true
	case "LRANGE", "ZRANGE", "ZREVRANGE":
		if name == "ZRANGE" {
			byScore, _ := c.hasArg("BYSCORE")
			byLex, _ := c.hasArg("BYLEX")
			if byScore || byLex {
				if limit, maybe := c.hasArg("LIMIT"); !limit && !maybe {
					in.reportCall(c, RuleWholeRead, "ZRANGE by score or lex without LIMIT reads every member in the range: its cost grows with the data (add LIMIT offset count)")
					return true
				}
				return false
			}
		}
		if len(c.argv) >= 4 && c.argv[2].Known && isInt(c.argv[2].Text) && !strings.HasPrefix(c.argv[2].Text, "-") && c.args[3].fromEnd {
			// "ZRANGE k 0 (-1 - count)" keeps the newest count members
			// out of a read of all the others.
			in.reportCall(c, RuleWholeRead, "%s %s with a stop counted back from the end reads all but the last few members: its cost grows with the data (use a fixed stop index)", name, c.argv[2].Text)
			return true
		}
		if len(c.argv) >= 4 && c.argv[2].Known && isInt(c.argv[2].Text) && !strings.HasPrefix(c.argv[2].Text, "-") && !c.argv[3].Known && c.args[3].size {
			// GroupMQ's trim: "ZRANGE k 0 (ZCARD - keep - 1)" reads every
			// member past the kept ones, however many there are.
			in.reportCall(c, RuleWholeRead, "%s %s with a stop computed from the collection's size reads all but the last few members: its cost grows with the data (use a fixed stop index)", name, c.argv[2].Text)
			return true
		}
		if len(c.argv) >= 4 && !c.argv[2].Known && c.args[2].fromStart && c.argv[3].Known && isInt(c.argv[3].Text) && strings.HasPrefix(c.argv[3].Text, "-") {
			// "local first = 0; if limit > 0 then first = -limit end":
			// on the path where the start stays 0 the read takes all.
			in.reportCall(c, RuleWholeRead, "%s with a start that is 0 on some path and stop %s reads to the end of the collection on that path: its cost grows with the data (use a fixed stop index)", name, c.argv[3].Text)
			return true
		}
		if len(c.argv) >= 4 && !c.argv[2].Known && !c.args[2].fromEnd && !c.args[2].minus && !c.args[2].size && c.args[2].src&(fromArgv|fromReply|fromDecoded) != 0 &&
			c.argv[3].Known && c.argv[3].Text == "-1" {
			// "ZREVRANGE set keep -1" with keep from the job's options:
			// every member past the ones kept, however many there are.
			in.reportCall(c, RuleWholeRead, "%s from a start the caller or the data sets to -1 reads every member after that start: unless the start counts back from the end, its cost grows with the data (use a fixed stop index)", name)
			return true
		}
		if len(c.argv) < 4 || !c.argv[2].Known || !c.argv[3].Known {
			return false
		}
		start, stop := c.argv[2].Text, c.argv[3].Text
		if !strings.HasPrefix(start, "-") && strings.HasPrefix(stop, "-") && isInt(start) && isInt(stop) {
			in.reportCall(c, RuleWholeRead, "%s %s %s reads to the end of the collection: its cost grows with the data (use a fixed stop index)", name, start, stop)
			return true
		}
	case "ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZRANGEBYLEX", "ZREVRANGEBYLEX":
		if limit, maybe := c.hasArg("LIMIT"); !limit && !maybe {
			in.reportCall(c, RuleWholeRead, "%s without LIMIT reads every member in the range: its cost grows with the data (add LIMIT offset count)", name)
			return true
		}
		if n := c.limitCount(); n > 0 && c.args[n].isMinusOne() {
			in.reportCall(c, RuleWholeRead, "%s with LIMIT count -1 reads every member in the range: its cost grows with the data (give a count)", name)
			return true
		}
		if n := c.limitCount(); n > 0 && c.args[n].allOnSomePath {
			// relayGet's window(): "if last < 0 then return first, -1".
			in.reportCall(c, RuleWholeRead, "%s with a LIMIT count that is -1 on some path reads every member in the range on that path: its cost grows with the data (clamp the count)", name)
			return true
		}
	case "XRANGE", "XREVRANGE":
		if len(c.argv) < 4 || !c.argv[2].Known || !c.argv[3].Known {
			return false
		}
		lo, hi := c.argv[2].Text, c.argv[3].Text
		if name == "XREVRANGE" {
			lo, hi = hi, lo
		}
		if count, maybe := c.hasArg("COUNT"); lo == "-" && hi == "+" && !count && !maybe {
			in.reportCall(c, RuleWholeRead, "%s - + without COUNT reads the whole stream: its cost grows with the data (add COUNT)", name)
			return true
		}
	}
	return false
}

// callerRange: a range read by index whose stop is a number the caller
// passes as is ("ZRANGE k first last" with last = tonumber(ARGV[4])): the
// request decides how many members the reply holds, up to the whole
// collection (a stop of -1 reads to the end, and math.min(last, first +
// 99) lets it through). A LIMIT count the caller sets is a page size, as
// a fixed one is, and is not taken for this.
func callerRange(c commandCall) bool {
	switch c.cmd.Name {
	case "LRANGE", "ZRANGE", "ZREVRANGE":
		for _, by := range []string{"BYSCORE", "BYLEX"} {
			if found, maybe := c.hasArg(by); found || maybe {
				return false
			}
		}
		return len(c.args) >= 4 && c.args[3].callerNumber()
	}
	return false
}

// sizeCommands reply with the size of a collection or of a range of it.
var sizeCommands = map[string]bool{
	"ZCARD": true, "ZCOUNT": true, "ZLEXCOUNT": true, "LLEN": true,
	"SCARD": true, "HLEN": true, "XLEN": true,
}

func scanFor(cmd string) string {
	if cmd == "SMEMBERS" {
		return "SSCAN"
	}
	return "HSCAN"
}

func isInt(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// keyArgs records the command's key arguments (per the command table's key
// specs) and runs LUA201/LUA202 on each.
func (in *interp) keyArgs(c commandCall) {
	refs, _ := c.cmd.Keys(c.argv)
	for _, r := range refs {
		if r.Index >= len(c.args) {
			continue
		}
		v := c.args[r.Index]
		if v.hasKey && !in.c.opts.findingsOnly {
			in.c.res.Keys = append(in.c.res.Keys, KeyUse{
				Pos:      Position{File: in.c.opts.Filename, Line: c.line, Column: c.col},
				Command:  c.cmd.Name,
				Key:      v.key,
				Function: in.frame.fnName,
			})
		}
		in.judgeKey(c, v)
	}
}

// spreadKeys is LUA201 for keys that come in bulk from caller input:
// redis.call('DEL', unpack(ARGV)). The spread is judged when the position
// it starts at is a key position.
func (in *interp) spreadKeys(c commandCall) {
	if !c.spread || in.c.flags.noCluster || c.spreadVal.src&(fromArgv|fromDecoded|fromReply) == 0 || c.spreadVal.kind == kKeys {
		return
	}
	probe := append(append([]rediscmd.Arg(nil), c.argv...), rediscmd.Arg{})
	refs, _ := c.cmd.Keys(probe)
	for _, r := range refs {
		if r.Index != len(c.argv) {
			continue
		}
		from := "ARGV"
		if c.spreadVal.src&fromArgv == 0 {
			from = "stored or decoded data"
		}
		f := Finding{
			Pos:      Position{Line: c.line, Column: c.col},
			Rule:     RuleUndeclaredKey,
			Command:  c.cmd.Name,
			Function: in.frame.fnName,
			Message:  sprintf("%s keys come from %s, spread with %s, not KEYS: on a cluster they may live in other slots", c.cmd.Name, from, c.spreadVal.key.Format(" .. ")),
		}
		if !c.spreadVal.hasKey {
			f.Message = sprintf("%s keys come from %s, not KEYS: on a cluster they may live in other slots", c.cmd.Name, from)
		}
		if c.spreadVal.src&fromArgv != 0 {
			// Whole keys, not built on a prefix the project tags.
			f.Message += " (-keys-tagged does not cover whole keys passed in ARGV, only KEYS and the key prefixes the caller passes: they may be other entities' keys, under their own tags; pass them in KEYS)"
		}
		in.c.report(f)
		return
	}
}

// judgeKey is LUA201 (key not passed in KEYS) and LUA202 (key derived from
// KEYS[i]). Keys whose origin is not known are not reported.
func (in *interp) judgeKey(c commandCall, v value) {
	if in.c.flags.noCluster {
		return // the script refuses to run on a cluster
	}
	f := Finding{
		Pos:      Position{Line: c.line, Column: c.col},
		Command:  c.cmd.Name,
		Function: in.frame.fnName,
	}
	crossNote := ""
	if in.frame.allowCross {
		crossNote = " (allow-cross-slot-keys only helps while that slot is on the same node)"
	}
	if !v.hasKey {
		switch {
		case v.src&fromReply != 0:
			f.Rule, f.Message = RuleUndeclaredKey, sprintf("%s key is read from the reply of %s, not passed in KEYS: on a cluster it may live in another slot%s", c.cmd.Name, orSome(v.cmd), crossNote)
		case v.src&(fromDecoded|fromArgv) == fromDecoded && v.src&fromKeysText != 0:
			f.Rule, f.Message = RuleUndeclaredKey, sprintf("%s key is decoded from the text of a KEYS element, not passed in KEYS: on a cluster it may live in another slot%s", c.cmd.Name, crossNote)
		case v.src&fromArgv != 0:
			// A whole key from ARGV (here decoded from it): -keys-tagged
			// vouches for the prefixes the caller passes, not for this.
			f.Rule, f.Message = RuleUndeclaredKey, sprintf("%s key comes from ARGV data, not KEYS: on a cluster it may live in another slot%s", c.cmd.Name, crossNote)
			f.whole = true
			if v.at != 0 {
				f.root = sprintf("data@%d", in.rootPlace(v.at))
			}
		case v.src&fromLiteralText != 0:
			f.Rule, f.Message = RuleUndeclaredKey, sprintf("%s key is decoded from a literal in the script, not passed in KEYS: on a cluster it may live in another slot than the script's keys%s", c.cmd.Name, crossNote)
		default:
			return
		}
		if v.at != 0 {
			what := "data"
			if v.src&fromReply != 0 {
				what = "reply"
			}
			f.cause = in.c.causeName(what, v.at)
		}
		if f.whole && f.cause == "" {
			f.Message += wholeKeyNote
		}
		in.c.report(f)
		return
	}
	f.Key, f.HasKey = v.key, true
	shown := v.key.Format(" .. ")
	var keysHole, argvHole, keysDataHole, dataHole, literalDataHole bool
	keysIndex := 0
	base := "KEYS[i]"
	for _, h := range v.key.Holes() {
		switch holeOrigin(h.ID) {
		case "KEYS":
			if !keysHole {
				keysIndex, base = keysIndexOf(h.ID), h.Label
			}
			keysHole = true
		case "ARGV", "data":
			argvHole = true // ARGV itself, or computed or decoded from it
		case "keysdata":
			keysDataHole = true
		case "reply":
			dataHole = true
		case holeLiteralData:
			literalDataHole = true
		}
	}
	parts := v.key.Parts()
	switch {
	case len(parts) == 1 && parts[0].Hole != nil && keysHole:
		return // KEYS[i] itself
	case keysHole:
		if in.c.opts.KeysTagged && tagFromKeys(parts) {
			return // KEYS[i]'s tag is the derived key's tag
		}
		f.Rule, f.KeysIndex = RuleDerivedKey, keysIndex
		f.Message = sprintf("%s key %s is derived from %s, not passed in KEYS: it shares %s's slot only if %s carries a hash tag", c.cmd.Name, shown, base, base, base)
	case !v.key.HasHoles():
		lit, _ := v.key.Literal()
		f.Rule = RuleUndeclaredKey
		f.Message = sprintf("%s key %s (slot %d) is a literal, not passed in KEYS: on a cluster it may live in another slot than the script's keys%s", c.cmd.Name, shown, slot.Slot(lit), crossNote)
	case dataHole && firstHoleOrigin(parts) == holeReply:
		// "a reply of HGET .. ':' .. ARGV[2]": the stored value decides
		// the slot, whatever the caller's part after it.
		f.Rule = RuleUndeclaredKey
		f.Message = sprintf("%s key %s is read from stored data, not passed in KEYS: on a cluster it may live in another slot%s", c.cmd.Name, shown, crossNote)
		f.cause, _ = in.c.undeclaredCause(parts)
	case argvHole:
		f.Rule = RuleUndeclaredKey
		f.Message = sprintf("%s key %s comes from ARGV, not KEYS: on a cluster it may live in another slot%s", c.cmd.Name, shown, crossNote)
		f.cause, f.prefix = in.c.undeclaredCause(parts)
		f.root = in.rootOf(parts)
		if len(parts) > 1 && in.c.opts.KeysTagged && tagFromArgs(parts) {
			// Built on a key prefix the caller passes in ARGV, with the
			// project's tag: quiet, unless the file uses the same value
			// as a whole key (groupCauses).
			if f.cause == "" {
				return
			}
			f.tagged = true
		}
		if len(parts) == 1 {
			// The caller's whole key, not a prefix: the project's tag on
			// its prefixes says nothing of which entity's key it is.
			f.prefix, f.whole = false, true
			if f.cause == "" {
				f.Message += wholeKeyNote
			}
		}
	case keysDataHole:
		f.Rule = RuleUndeclaredKey
		f.Message = sprintf("%s key %s is built from data decoded from the text of a KEYS element, not passed in KEYS: on a cluster it may live in another slot%s", c.cmd.Name, shown, crossNote)
		f.cause, _ = in.c.undeclaredCause(parts)
	case dataHole:
		f.Rule = RuleUndeclaredKey
		f.Message = sprintf("%s key %s is read from stored data, not passed in KEYS: on a cluster it may live in another slot%s", c.cmd.Name, shown, crossNote)
		f.cause, _ = in.c.undeclaredCause(parts)
	case literalDataHole:
		f.Rule = RuleUndeclaredKey
		f.Message = sprintf("%s key %s is decoded from a literal in the script, not passed in KEYS: on a cluster it may live in another slot than the script's keys%s", c.cmd.Name, shown, crossNote)
		f.cause, _ = in.c.undeclaredCause(parts)
	default:
		return // only holes of unknown origin
	}
	in.c.report(f)
}

// rootOf names the value that decides a key's slot across the files of
// one check: ARGV[n], or the place its data was decoded at, followed
// back through the parameters of the helpers being analysed; "" when a
// literal "{" comes first or the value has no such name.
func (in *interp) rootOf(parts []slot.Part) string {
	for _, p := range parts {
		if p.Hole == nil {
			if strings.Contains(p.Lit, "{") {
				return ""
			}
			continue
		}
		h, ok := p.Hole.ID.(holeID)
		switch {
		case !ok:
			return ""
		case h.origin == "ARGV" && h.index != "" && h.index != "?":
			return p.Hole.Label
		case h.origin == holeData && h.at != 0:
			return sprintf("data@%d", in.rootPlace(h.at))
		}
		return ""
	}
	return ""
}

// undeclaredCause names what decides the slot of a LUA201 key: its first
// part that could hold a "{", when that is ARGV[n] with a literal n (the
// caller's prefix: prefix is true) or data read or decoded at a known
// place (one reply, one decoded value). Every key of a file that this
// part starts has its slot decided by the same text, and one change (a
// hash tag in that prefix, the stored key passed in KEYS) settles them
// all. A literal "{" before it, a computed index or a value of unknown
// origin gives "": the key is its own cause.
func (c *checker) undeclaredCause(parts []slot.Part) (cause string, prefix bool) {
	for _, p := range parts {
		if p.Hole == nil {
			if strings.Contains(p.Lit, "{") {
				return "", false
			}
			continue
		}
		h, ok := p.Hole.ID.(holeID)
		if !ok {
			return "", false
		}
		switch h.origin {
		case "ARGV":
			if h.index == "" || h.index == "?" {
				return "", false
			}
			return p.Hole.Label, true
		case holeReply, holeData, holeKeysData, holeLiteralData:
			if h.at == 0 {
				return "", false
			}
			what := "data"
			if h.origin == holeReply {
				what = "reply"
			}
			return c.causeName(what, h.at), false
		}
		return "", false
	}
	return "", false
}

// causeName is the cause of keys built from data read at a place: "reply@N"
// or "data@N", or "param NAME@N" for a function parameter's data.
func (c *checker) causeName(what string, at uint32) string {
	if name, ok := c.params[at]; ok {
		return sprintf("param %s@%d", name, at)
	}
	return sprintf("%s@%d", what, at)
}

// firstHoleOrigin is the origin of the key's first hole, "" when a literal
// "{" comes before it or there is none.
func firstHoleOrigin(parts []slot.Part) string {
	for _, p := range parts {
		if p.Hole != nil {
			return holeOrigin(p.Hole.ID)
		}
		if strings.Contains(p.Lit, "{") {
			return ""
		}
	}
	return ""
}

// tagFromKeys: the key's first part that could hold a "{" is a KEYS hole,
// so a tagged KEYS[i] gives the key its tag.
func tagFromKeys(parts []slot.Part) bool {
	for _, p := range parts {
		if p.Hole != nil {
			return holeOrigin(p.Hole.ID) == "KEYS"
		}
		if strings.Contains(p.Lit, "{") {
			return false
		}
	}
	return false
}

// tagFromArgs: the key's first part that could hold a "{" is a key or
// prefix the caller passes in ARGV (ARGV[i] itself, or a value decoded
// from it), so a project whose passed keys carry its hash tag gives the
// key that tag.
func tagFromArgs(parts []slot.Part) bool {
	for _, p := range parts {
		if p.Hole != nil {
			o := holeOrigin(p.Hole.ID)
			return o == "ARGV" || o == holeData
		}
		if strings.Contains(p.Lit, "{") {
			return false
		}
	}
	return false
}

// keysIndexOf returns n for the hole KEYS[n], 0 for a computed index.
func keysIndexOf(id slot.HoleID) int {
	h, _ := id.(holeID)
	s := h.index
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0
		}
		n = n*10 + int(s[i]-'0')
		if n > 1<<20 {
			return 0
		}
	}
	return n
}

// checkKeysIndex is LUA203: KEYS[n] beyond the number of keys passed.
func (in *interp) checkKeysIndex(n, line int, label string) {
	nk := in.c.opts.NumKeys
	if !in.c.opts.KeysKnown || n <= nk {
		return
	}
	in.c.report(Finding{
		Pos:       Position{Line: line, Column: in.c.toks.column(line, label)},
		Rule:      RuleKeysIndex,
		Message:   sprintf("%s[%d] is read but the script is called with %d key%s: it is nil", label, n, nk, plural(nk)),
		KeysIndex: n,
		Function:  in.frame.fnName,
	})
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// returnedCalls finds the calls whose reply the script returns as it is:
// an expression of a return statement of the chunk, or a field of a
// table such a statement returns (return {redis.call('HGETALL', k), id}),
// or the call a local is set from when the block after it only tests and
// returns that local (local result = f(...); if result then return result
// end; one the script also reads otherwise, #members in a command or
// table.sort, is its own).
// A return inside a function of the chunk is the script's reply too when
// every call of that function is itself returned so, at the top level or
// from another such function (BullMQ's commands return
// prepareJobForProcessing(...), which returns {HGETALL job, id}); a
// function also called anywhere else is not followed.
func returnedCalls(chunk []ast.Stmt) map[*ast.FuncCallExpr]bool {
	// The chunk's local functions (local function f() ... end parses as
	// local f = function() ... end).
	var funcs map[string]*ast.FunctionExpr
	for _, st := range chunk {
		if la, ok := st.(*ast.LocalAssignStmt); ok && len(la.Names) == 1 && len(la.Exprs) == 1 {
			if fn, ok := la.Exprs[0].(*ast.FunctionExpr); ok {
				if funcs == nil {
					funcs = map[string]*ast.FunctionExpr{}
				}
				funcs[la.Names[0]] = fn
			}
		}
	}
	// One walk finds the names some statement returns alone (only locals
	// of these names are followed, within a budget of nodes visited, so
	// that a script of many such locals cannot make this quadratic) and
	// every call of a local function by name. Without local functions it
	// skips the expressions that hold no function body.
	var returnsName map[string]bool
	var calls map[string][]*ast.FuncCallExpr
	inspect(stmtNodes(chunk), func(n any) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if len(n.Exprs) == 1 {
				if id, ok := n.Exprs[0].(*ast.IdentExpr); ok {
					if returnsName == nil {
						returnsName = map[string]bool{}
					}
					returnsName[id.Value] = true
				}
			}
		case *ast.FuncCallExpr:
			if id, ok := n.Func.(*ast.IdentExpr); ok && funcs[id.Value] != nil {
				if calls == nil {
					calls = map[string][]*ast.FuncCallExpr{}
				}
				calls[id.Value] = append(calls[id.Value], n)
			}
			return len(funcs) > 0
		case *ast.FunctionExpr:
			return true
		case ast.Expr:
			return len(funcs) > 0
		}
		return true
	})
	budget := 200_000
	var found map[*ast.FuncCallExpr]bool
	add := func(e ast.Expr) {
		if c, ok := e.(*ast.FuncCallExpr); ok {
			if found == nil {
				found = map[*ast.FuncCallExpr]bool{}
			}
			found[c] = true
		}
	}
	var walk func(stmts []ast.Stmt)
	walk = func(stmts []ast.Stmt) {
		for i, st := range stmts {
			switch s := st.(type) {
			case *ast.LocalAssignStmt:
				if len(s.Names) == 1 && len(s.Exprs) == 1 && returnsName[s.Names[0]] && onlyReturned(s.Names[0], stmts[i+1:], &budget) {
					add(s.Exprs[0])
				}
			case *ast.ReturnStmt:
				for _, e := range s.Exprs {
					add(e)
					if t, ok := e.(*ast.TableExpr); ok {
						for _, f := range t.Fields {
							add(f.Value)
						}
					}
				}
			case *ast.IfStmt:
				walk(s.Then)
				walk(s.Else)
			case *ast.DoBlockStmt:
				walk(s.Stmts)
			case *ast.WhileStmt:
				walk(s.Stmts)
			case *ast.RepeatStmt:
				walk(s.Stmts)
			case *ast.NumberForStmt:
				walk(s.Stmts)
			case *ast.GenericForStmt:
				walk(s.Stmts)
			}
		}
	}
	walk(chunk)
	if found == nil {
		return nil
	}
	if len(funcs) == 0 {
		return found
	}
	followed := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for name, fn := range funcs {
			if followed[name] || len(calls[name]) == 0 {
				continue
			}
			all := true
			for _, c := range calls[name] {
				if !found[c] {
					all = false
					break
				}
			}
			if all {
				followed[name], changed = true, true
				walk(fn.Stmts)
			}
		}
	}
	return found
}

// onlyReturned reports whether the statements after a local's
// declaration read it only in the conditions of ifs (if name then) or to
// return it as the reply (return name), and return it at least once.
func onlyReturned(name string, after []ast.Stmt, budget *int) bool {
	allowed, returned := 0, false
	var count func(stmts []ast.Stmt)
	count = func(stmts []ast.Stmt) {
		for _, st := range stmts {
			*budget--
			switch s := st.(type) {
			case *ast.ReturnStmt:
				if len(s.Exprs) == 1 {
					if id, ok := s.Exprs[0].(*ast.IdentExpr); ok && id.Value == name {
						allowed++
						returned = true
					}
				}
			case *ast.IfStmt:
				// Tests of the reply (if result and type(result[1]) ==
				// "table" then) read a field or two, not the collection.
				inspect([]any{s.Condition}, func(n any) bool {
					*budget--
					if id, ok := n.(*ast.IdentExpr); ok && id.Value == name {
						allowed++
					}
					return true
				})
				count(s.Then)
				count(s.Else)
			case *ast.DoBlockStmt:
				count(s.Stmts)
			}
		}
	}
	if *budget <= 0 {
		return false
	}
	count(after)
	if !returned || *budget <= 0 {
		return false
	}
	uses := 0
	inspect(stmtNodes(after), func(n any) bool {
		*budget--
		if id, ok := n.(*ast.IdentExpr); ok && id.Value == name {
			uses++
		}
		return *budget > 0
	})
	return uses == allowed && *budget > 0
}
