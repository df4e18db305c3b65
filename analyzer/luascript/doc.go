// Package luascript defines an Analyzer that checks Lua scripts held in Go
// code, and every call of them against what the script does with the keys
// and arguments it is given.
//
// # Analyzer luascript
//
// luascript: check Lua scripts held in Go code, and each call against what
// its script does with KEYS and ARGV
//
// A script's text is found where go-redis v9 receives it: redis.NewScript,
// redis.NewScriptServerSHA, Eval and EvalRO on a client, Do("EVAL", ...),
// and FunctionLoad or FunctionLoadReplace for a Functions library. The text
// may be a string literal, a constant or a package-level variable given one
// value, a concatenation of those, or a file embedded with //go:embed into a
// string, a []byte, or an embed.FS read with its ReadFile method or
// io/fs's ReadFile and a name known before the program runs: a constant,
// a sum of constants, or fmt.Sprintf of them with %s, %v or %d. A loader,
// a function of the package that returns one script or text (func
// load(name string) *redis.Script reading "scripts/" + name, or one
// returning (string, error) whose other returns give "" or nil), is
// followed with each call's arguments, so every script it makes is
// checked. Embedded files are read from the directory of the Go file. A script
// value (redis.NewScript, rueidis and valkey-go NewLuaScript, redigo
// NewScript) is followed through a package-level variable or a struct
// field that the package gives exactly one value (s.claim =
// redis.NewScript(src) in a constructor, or &store{claim: ...}), and a
// local variable given one of several scripts is judged for each. No more text
// is read or gathered than the Lua checker accepts: a larger script, or an
// embedded file that cannot be read, is one SL1202 finding saying so. Each
// script is analysed once, and cached by content.
//
//   - SL1202: the Lua checker's findings (LUA001-LUA403), reported at the Go
//     line the script's line is written on (for an embedded file, at the
//     //go:embed directive, with the file and line in the message) under
//     the LUA rule's ID. Keys the script derives from KEYS[i] (LUA202) or
//     builds from ARGV or literals (LUA201) are judged at each call instead:
//     KEYS[i] and ARGV[i] are bound to what the call passes there, and the
//     key is reported only when it is not then proven to share the slot of
//     the KEYS it derives from (KEYS[1] otherwise). A key built from the
//     parameters of an unexported function that runs the script, and only
//     ever called, is judged at each call of that function with the
//     caller's arguments (a range over a list of keys in sight is judged
//     for each element); a local key given one of several values is judged
//     for each. A function that runs the script it is given (s.Run(ctx, c,
//     keys, args...) on its parameters) is read as a call of the caller's
//     script with the caller's keys and arguments. A script with no call
//     in the package is judged alone. EvalRO, RunRO and FCallRO also report
//     the write commands of the script (LUA403) at the call.
//   - SL1201: a call passes fewer keys than the script reads (KEYS[n] is nil
//     then), or passes keys an EVAL script never reads. For FCALL only the
//     first is checked, for the function called. A script that reads #KEYS
//     or KEYS as a whole (unpack, ipairs) may take optional keys and is not
//     judged.
//
// SL1004 (scriptkeys) still relates the KEYS a call passes; the keys a
// script derives from them are judged here, under their LUA IDs.
//
// FCALL is matched to its function when the package loads the library and
// calls the function by a constant name. A call whose keys or arguments
// cannot be resolved is judged as the script alone would be.
//
// Suppress a Go rule with //slotlint:ignore SL1201 reason, a Lua finding at
// its Go line with //slotlint:ignore LUA202 reason, or inside the script
// with -- slotlint:ignore LUA202 reason. -slotlint.disable SL1202 silences
// every Lua finding.
//
// # Analyzer slotlintscripts
//
// slotlintscripts: records the scripts that exported variables hold, for
// slotlint's script checks
//
// A package that holds a script in an exported variable exports its text as
// a fact, so a call of that script in an importing package is checked as
// one in the same package. It reports nothing.
package luascript
