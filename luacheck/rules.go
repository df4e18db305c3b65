package luacheck

// Rule IDs. They are stable: a rule that changes meaning gets a new ID.
const (
	RuleSyntax          = "LUA001"
	RuleSuppression     = "LUA002"
	RuleNoBound         = "LUA101"
	RuleInputBound      = "LUA102"
	RuleWholeRead       = "LUA103"
	RuleUnpackWhole     = "LUA104"
	RuleUndeclaredKey   = "LUA201"
	RuleDerivedKey      = "LUA202"
	RuleKeysIndex       = "LUA203"
	RuleGlobalWrite     = "LUA301"
	RuleMissingGlobal   = "LUA302"
	RuleNilCompare      = "LUA303"
	RuleMaybeNil        = "LUA304"
	RuleTruthTest       = "LUA305"
	RuleDangerous       = "LUA401"
	RuleNoScript        = "LUA402"
	RuleWriteInReadOnly = "LUA403"
)

// Rule documents one check.
type Rule struct {
	ID    string
	Title string
	// Why the problem matters on Redis.
	Why string
	// Bad and Good are short scripts.
	Bad, Good string
}

// Suppress is how any rule is silenced; the reason is required.
const Suppress = "-- slotlint:ignore LUAxxx reason (on the line or the line above)"

// Rules is the catalogue, in ID order.
var Rules = []Rule{
	{
		ID: RuleSyntax, Title: "syntax error, or syntax or shebang Redis refuses",
		Why: "Redis runs Lua 5.1: goto and labels (accepted by gopher-lua) fail to compile; so do more than 200 active locals or 60 upvalues in one function and nesting beyond Lua's 200 syntax levels (brackets, blocks, unary operators, .. and ^ chains); unknown shebang flags or options and a library without \"#!lua name=\" are refused. A file that is a template (ERB <%= %> tags, @name parameters, {{ }} placeholders, printf-style %d or %s where a value goes) is reported once as such: render it first. A file that is no Redis script (it never calls redis.call or redis.pcall and uses require, module, package, dofile, loadfile or ngx, as a Redis client library written in Lua for OpenResty or a standalone interpreter does) is reported once as such, at its first use of one of them, and nothing else in it is. A script over the checker's bounds (4 MB, 250,000 tokens, a syntax tree 5,000 levels deep) is not checked, and one whose analysis reaches the step budget is only partly checked: the finding says so.",
		Bad: "#!lua flags=no-writes,readonly\n::again:: goto again", Good: "#!lua flags=no-writes\nreturn redis.call('GET', KEYS[1])",
	},
	{
		ID: RuleSuppression, Title: "suppression comment without a reason",
		Why: "a silenced finding must say why, so the next reader can judge whether it still holds",
		Bad: "-- slotlint:ignore LUA201", Good: "-- slotlint:ignore LUA201 config key lives on every node by design",
	},
	{
		ID: RuleNoBound, Title: "loop with no bound",
		Why: "a script blocks the whole server; a loop that cannot end leaves it BUSY until SCRIPT KILL or SHUTDOWN NOSAVE. That includes polling loops: while a script runs no other client runs a command, so a loop whose only exits test a key it does not write, INFO replication, or a pcall it repeats with the same arguments takes the same path every time (TIME, random reads and INFO stats/memory/cpu do move)",
		Bad: "while true do redis.call('LPUSH', KEYS[1], 'x') end", Good: "while true do local v = redis.call('LPOP', KEYS[1]) if not v then break end end",
	},
	{
		ID: RuleInputBound, Title: "loop bound from caller input or stored data, unclamped",
		Why: "the caller or the data decides how long the server is blocked, and the loop is where the per-item cost and the writes are. Reported at the loop: a numeric for whose limit (its start, when it counts down by a negative step), or a while loop whose compared bound, is a number from ARGV (tonumber(ARGV[i]), or a count inside a JSON payload), a command reply (a stored count, LLEN), data decoded from a stored value, or, when the loop runs a command on each pass, the length of a reply that holds a whole collection (or of a table filled from one) or of a range read by index whose stop the caller passes as is or less a constant (ZRANGE key first last with last from ARGV, or ZRANGE key 0 n-1 with n from ARGV: a stop of -1 reads to the end, n = 0 gives one, and math.min(last, first + 99) lets -1 through), with no clamp (math.min, or the bound compared with a constant); and a for ... in ipairs/pairs loop (or a loop over an iterator fed with a whole reply or its length, as batches(#reply, 7000)) that runs a command on each pass over a reply that holds a whole collection (SMEMBERS, HGETALL, LRANGE 0 -1, ZRANGE to a stop counted back from the end, ZRANGEBYSCORE without LIMIT, KEYS) or over a list decoded from a stored value. Not reported: loops over the request's own arguments (#KEYS, #ARGV, ipairs(KEYS), ipairs(ARGV), a list decoded from ARGV or from a KEYS element, or a numeric for whatever its limit whose every pass uses ARGV[i + c] where a missing entry raises, as in prefix .. ARGV[1 + i] or redis.call('SADD', key, ARGV[1 + i]) (redis.call raises on a nil argument; redis.pcall does not), directly or through a local holding it, or takes the next KEYS or ARGV entry through a getter that advances a cursor (local function nextArg() local a = ARGV[at]; at = at + 1; return a end) and uses it so, or as the start, limit or step of an inner numeric for (directly or through tonumber: for j = 1, tonumber(nextArg()), where a nil limit raises), so that the script fails past the last argument; a key KEYS[i] given to redis.call the same way, and a later loop to a local count that such a loop has already run to), which cost what the request asks for and are reported only with -arg-loops; loops with a break or return in their body, taken as bounded by it, except over a whole collection, where only an exit that caps the passes (a counter advanced on every pass against a fixed number) bounds the loop; ipairs/pairs loops that only do Lua work on a value already read (the read is the cost, LUA103); loops over a page (LIMIT/COUNT); and halving loops (binary search), which end within about 64 passes. A while or repeat loop that waits on the server's clock (its condition or an exit compares a TIME reading taken on every pass, directly or through a function of the script) until a deadline from ARGV or from data, with no clamp and no cap on the passes, is reported whatever its exits: TIME moves while a script runs, so the loop ends, but only at the deadline, and until then no other client runs a command. Loops that page through a collection until it runs out (SCAN until the cursor is 0, LIMIT pages until one comes back empty, LPOP/RPOP/ZPOPMIN... until nothing comes back) are LUA103 at the loop, and loops that nothing in the script can end are LUA101",
		Bad: "for i = 1, tonumber(ARGV[1]) do redis.call('RPOP', KEYS[1]) end", Good: "for i = 1, math.min(tonumber(ARGV[1]), 100) do redis.call('RPOP', KEYS[1]) end",
	},
	{
		ID: RuleWholeRead, Title: "whole-collection or keyspace read",
		Why: "SMEMBERS, HGETALL, HKEYS, HVALS, SUNION/SINTER/SDIFF, LRANGE/ZRANGE/ZREVRANGE to -1 (from a fixed start, from a start that is 0 on some path, or from one the caller or the data sets that is not counted back from the end or from the collection's size) or from a fixed start to a stop computed from the collection's size (ZRANGE k 0 (ZCARD - keep - 1), which reads all but the kept members), and range reads without LIMIT/COUNT cost as much as the data and block the server meanwhile (KEYS is reported once, as LUA401); so do loops that page through a collection until it runs out (SCAN until the cursor is 0, LIMIT pages until one comes back empty, LPOP/RPOP/ZPOPMIN... until nothing comes back) with no fixed cap on pages or items (a pop loop whose condition also runs down a count from ARGV or from a reply, as while limit > 0 and length > 0, moves at most that count: it is LUA102's, at the loop). A whole read the script returns as its reply as it is (return redis.call('ZRANGE', KEYS[1], 0, -1), or a field of a returned table, at the script's top level; through a local the script only tests and returns, local r = f(); if r then return r end; or from a local function every call of which is so returned) is reported only with -returned-reads: the caller asked for the collection, and it costs what the same command sent alone costs",
		Bad: "local n = #redis.call('SMEMBERS', KEYS[1])", Good: "local n = redis.call('SCARD', KEYS[1])",
	},
	{
		ID: RuleUnpackWhole, Title: "unpack of a whole collection",
		Why: "unpack puts every element of a table on Lua's stack, and Redis's Lua refuses 8,000 or more at once (\"too many results to unpack\"; 7,999 pass on Redis 7.0): a script that unpacks a whole read (SMEMBERS, HKEYS, LRANGE 0 -1, ZRANGEBYSCORE without LIMIT, KEYS, ...) or a table that a loop over one fills (t[#t + 1] = item or table.insert(t, item), with t declared outside the loop), to pass it to a command or to copy it, works while the collection is small and fails once it reaches that size, keeping the writes it made before the failure. Reported at unpack(t) with no range, once per table (the message names its other unpacks). Not reported: a slice, unpack(t, i, j), the way libraries send a few thousand at a time; a batch made anew for each slice (local batch = {} inside the loop, or filled by an inner loop from i to math.min(i + 999, #t)); unpack(KEYS), unpack(ARGV) and lists decoded from the request, whose size the caller chooses; reads with LIMIT, COUNT or a fixed range",
		Bad: "redis.call('SADD', KEYS[2], unpack(redis.call('SMEMBERS', KEYS[1])))", Good: "local m = redis.call('SMEMBERS', KEYS[1])\nfor i = 1, #m, 5000 do redis.call('SADD', KEYS[2], unpack(m, i, math.min(i + 4999, #m))) end",
	},
	{
		ID: RuleUndeclaredKey, Title: "key not passed in KEYS",
		Why: "on a cluster a script may only touch keys of its declared keys' slot; a literal key, a key from ARGV or one read from data may be in another slot (CROSSSLOT / non-local key errors) and is invisible to clients that route by KEYS. A project that passes every key and key prefix with its hash tag (a queue library that passes its \"{queue}\" prefix in ARGV, as Bull and BullMQ do) says so with `slotlint lua -keys-tagged` or a \"-- slotlint:keys-tagged\" comment: a key built on a prefix from ARGV is then quiet; a whole key passed in ARGV (a parent job's key in the payload) and the keys built on it, in its file or in a helper the script includes or defines (parentKey .. ':processed' in a helper whose includer checks EXISTS parentKey), keys read from stored data (a parent job's queue, a SCAN result) and literals are still reported, since they may belong to another entity under its own tag. `slotlint lua` reports the keys a file builds from one cause once, at the first, naming the lines of the others: one ARGV[n] prefix (whose tag decides them all), one reply, one field of decoded data or one function parameter's data (the Go analyzer, which binds ARGV per call site, judges each key)",
		Bad: "redis.call('INCR', 'stats:' .. ARGV[1])", Good: "redis.call('INCR', KEYS[2]) -- pass the key",
	},
	{
		ID: RuleDerivedKey, Title: "key derived from KEYS[i]",
		Why: "KEYS[1] .. ':lock' is another key; it shares KEYS[1]'s slot only if KEYS[1] carries a hash tag, which the script cannot see. A project whose keys always carry one (a queue library with the prefix \"{queue}\") says so with `slotlint lua -keys-tagged` or a \"-- slotlint:keys-tagged\" comment in the script: keys derived from KEYS[i] with no \"{\" before it are then quiet, since they take KEYS[i]'s tag. `slotlint lua` reports the keys a file derives from one KEYS[i] once, at the first, naming the lines of the others: one tag decides them all (the Go analyzer, which binds KEYS per call site, judges each key)",
		Bad: "redis.call('SET', KEYS[1] .. ':lock', ARGV[1])", Good: "redis.call('SET', KEYS[2], ARGV[1]) -- caller passes {id}:lock",
	},
	{
		ID: RuleKeysIndex, Title: "KEYS[n] beyond the number of keys passed",
		Why: "KEYS[n] past the keys given is nil; commands then fail or act on the wrong key",
		Bad: "-- called with 1 key\nreturn redis.call('GET', KEYS[2])", Good: "return redis.call('GET', KEYS[1])",
	},
	{
		ID: RuleGlobalWrite, Title: "global variable or function created",
		Why: "Redis's sandbox refuses new globals and new members of its library tables (string, table, math, redis, cjson, ...): the script fails with \"Attempt to modify a readonly table\"; a function that assigns a name before the local of that name is declared assigns a global",
		Bad: "count = 0\nfunction table.extend(t, v) t[#t + 1] = v end", Good: "local count = 0\nlocal function extend(t, v) t[#t + 1] = v end",
	},
	{
		ID: RuleMissingGlobal, Title: "global the sandbox does not provide",
		Why: "os, io, print, require, package, loadfile, dofile, setfenv, getfenv, debug, module and newproxy do not exist in Redis 7.0's sandbox (os.clock only since 7.4); in a Functions library neither do KEYS and ARGV. Helpers defined in another file are not missing when the checker sees them: BullMQ-style \"--- @include\" lines are resolved relative to the script, and `slotlint lua -prelude FILE` prepends the file an application joins with each body (`-globals NAME,...` names the rest); findings map back to the file and line of their code. A file that only defines functions (a helper another script includes, a class file that adds methods to a table another file creates), a script with an include that cannot be read, and a local function the file never names (its body never runs) may read names defined elsewhere: there only the names above are reported. `slotlint lua` reports the names a file reads and never defines once, at the first read, listing each with its line: Redis stops at the first, and one prelude the checker was not given usually defines them all; each standard name above is one finding with its other reads listed. Names a header beside the file defines are not reported when the header is checked in the same run: a file of the same directory that only declares locals (local settings_key = KEYS[1], local process_tick = function ... end, after at most redis.replicate_commands()) does nothing alone and exists to be joined before the scripts, as Bottleneck joins refs.lua and its helpers with each body",
		Bad: "local now = os.time()", Good: "local now = redis.call('TIME')[1]",
	},
	{
		ID: RuleNilCompare, Title: "redis.call reply compared with nil",
		Why: "a redis.call reply is never nil: a nil bulk reply (GET of a missing key) arrives in Lua as false and an empty array (ZRANGE with no match) as an empty table, so the test is constant",
		Bad: "if redis.call('GET', KEYS[1]) == nil then return 0 end", Good: "if not redis.call('GET', KEYS[1]) then return 0 end",
	},
	{
		ID: RuleMaybeNil, Title: "arithmetic, ordering or string functions on a value that may be nil/false",
		Why: "GET and friends return false for a missing key and tonumber(false) is nil; arithmetic or < on it raises an error, and so does giving it to the string library as the string to work on (string.find(false, p): \"bad argument #1 to 'find' (string expected, got boolean)\"; also match, gmatch, gsub, sub, len, lower, upper, rep, reverse, byte) or calling a string method on it (v:sub(1, 3): \"attempt to index ... (a boolean value)\"), or taking its length (#v: \"attempt to get length of ... (a boolean value)\"). A read of a value the script has just written (INCRBY/DECRBY/SET then GET, HINCRBY/HSET then HGET, ZINCRBY or ZADD without XX then ZSCORE or ZRANK) or whose read a condition tested, or a GET of a key whose existence a condition tested (redis.call('EXISTS', k) == 0, redis.call('TYPE', k).ok == 'none'), is not reported; nor is the first or last element of a list a condition found not empty (LLEN k > 0, or n <= LLEN k where an earlier branch ruled out n <= 0, then LINDEX k -1 or RPOP k), nor a read of a key the script has just listed, an element of a KEYS or SCAN reply as it is (for _, k in ipairs(redis.call('KEYS', p)) do ... redis.call('GET', k)): the key exists, since a script runs alone and keys do not expire while it runs",
		Bad: "if tonumber(redis.call('GET', KEYS[1])) >= 10 then return 0 end", Good: "if (tonumber(redis.call('GET', KEYS[1])) or 0) >= 10 then return 0 end",
	},
	{
		ID: RuleTruthTest, Title: "integer or array reply tested for truth, or a number compared with a boolean",
		Why: "In Lua only nil and false are false. An integer reply is a number, and 0 is true: if redis.call('EXISTS', k) then, if redis.call('SISMEMBER', s, m) then or redis.call('HEXISTS', h, f) and x always take the true side, and not of such a reply is always false, whatever the key holds; an array reply is a table, true even when empty. Reported where the reply itself (or a local holding it) is the condition of if, while or repeat, the operand of not, or the left operand of and (before or it only makes a default unused). A truth test beside another test of the same local (head and #head > 0, not t or #t == 0) is redundant, not wrong, and is not reported. Compare integers (== 1, > 0) and test a table's length (#reply > 0). Commands whose missing value is a nil bulk reply (GET, HGET, ZSCORE...) arrive as false and test correctly. The same confusion written as a comparison is reported too: such a reply, or a value that is a number on every path (a count a helper returns, #reply), compared with true or false with == or ~= never equals it, so == is always false and ~= always true (a count of matches tested with found ~= true takes every match for none)",
		Bad: "if redis.call('EXISTS', KEYS[1]) then return redis.call('GET', KEYS[1]) end return 'none'", Good: "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('GET', KEYS[1]) end return 'none'",
	},
	{
		ID: RuleDangerous, Title: "dangerous command in a script",
		Why: "commands in ACL category @dangerous or flagged admin (KEYS, FLUSHALL, FLUSHDB, INFO, CLUSTER ..., SORT with GET or a BY pattern, ...) act on the whole server or on keys the script was not given; SORT ... BY nosort STORE and RESTORE of a declared key touch only the script's keys and are not reported",
		Bad: "for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end", Good: "redis.call('DEL', unpack(KEYS))",
	},
	{
		ID: RuleNoScript, Title: "command scripts cannot run",
		Why: "commands flagged noscript (BLPOP, BRPOP, BLMOVE, WAIT, SUBSCRIBE, MULTI, EVAL, ...) are refused in scripts; other blocking commands (BLMPOP, BZMPOP) never block there, and XREAD with BLOCK is refused",
		Bad: "return redis.call('BLPOP', KEYS[1], 5)", Good: "return redis.call('LPOP', KEYS[1])",
	},
	{
		ID: RuleWriteInReadOnly, Title: "write command in a read-only script",
		Why: "under flags=no-writes, a no-writes function, EVAL_RO or FCALL_RO, Redis refuses write commands: \"Write commands are not allowed from read-only scripts\"",
		Bad: "#!lua flags=no-writes\nreturn redis.call('INCR', KEYS[1])", Good: "#!lua flags=no-writes\nreturn redis.call('GET', KEYS[1])",
	},
}
