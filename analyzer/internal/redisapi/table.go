package redisapi

// argKind says how a go-redis method argument holds keys.
type argKind uint8

const (
	argKey       argKind = iota // one key
	argVariadic                 // every argument from here on (or a spread slice)
	argSlice                    // a []string of keys
	argField                    // a string field of a struct argument
	argFieldList                // a []string field of a struct argument
	argStreams                  // XReadArgs.Streams / XReadStreams: keys then ids
	argPairs                    // MSet values: key, value, key, value, or a map
	argMapKeys                  // a map literal whose keys are keys
)

// argSpec locates keys in a call; i counts the context as argument 0.
type argSpec struct {
	kind  argKind
	i     int
	field string
}

// method is one go-redis v9 method that takes several keys.
type method struct {
	cmd  string
	keys []argSpec
}

func key(i int) argSpec                    { return argSpec{kind: argKey, i: i} }
func variadic(i int) argSpec               { return argSpec{kind: argVariadic, i: i} }
func field(i int, name string) argSpec     { return argSpec{kind: argField, i: i, field: name} }
func fieldList(i int, name string) argSpec { return argSpec{kind: argFieldList, i: i, field: name} }
func m(cmd string, keys ...argSpec) method { return method{cmd: cmd, keys: keys} }
func scriptArgs(cmd string, i int) method {
	return method{cmd: cmd, keys: []argSpec{{kind: argSlice, i: i}}}
}
func streams(i int, f string) argSpec { return argSpec{kind: argStreams, i: i, field: f} }
func pairs(i int) argSpec             { return argSpec{kind: argPairs, i: i} }

// multiKey lists go-redis v9 (v9.23.0) methods whose command takes several
// keys, by method name, with where each key is in the Go call. Methods not
// listed whose parameter is named key or stream have that single key.
var multiKey = map[string]method{
	// Variadic keys.
	"Del": m("DEL", variadic(1)), "Unlink": m("UNLINK", variadic(1)),
	"Exists": m("EXISTS", variadic(1)), "Touch": m("TOUCH", variadic(1)),
	"MGet":  m("MGET", variadic(1)),
	"SDiff": m("SDIFF", variadic(1)), "SInter": m("SINTER", variadic(1)), "SUnion": m("SUNION", variadic(1)),
	"SInterCard": m("SINTERCARD", variadic(2)),
	"SDiffCard":  m("SDIFFCARD", variadic(2)), "SUnionCard": m("SUNIONCARD", variadic(2)),
	"ZDiff": m("ZDIFF", variadic(1)), "ZDiffWithScores": m("ZDIFF", variadic(1)),
	"ZInter": m("ZINTER", fieldList(1, "Keys")), "ZInterWithScores": m("ZINTER", fieldList(1, "Keys")),
	"ZUnion": m("ZUNION", fieldList(1, "Keys")), "ZUnionWithScores": m("ZUNION", fieldList(1, "Keys")),
	"ZInterCard": m("ZINTERCARD", variadic(2)),
	"ZMPop":      m("ZMPOP", variadic(3)), "LMPop": m("LMPOP", variadic(3)),
	"PFCount": m("PFCOUNT", variadic(1)),
	"BLPop":   m("BLPOP", variadic(2)), "BRPop": m("BRPOP", variadic(2)),
	"BLMPop":   m("BLMPOP", variadic(4)),
	"BZPopMin": m("BZPOPMIN", variadic(2)), "BZPopMax": m("BZPOPMAX", variadic(2)),
	"BZMPop": m("BZMPOP", variadic(4)),

	// Destination and keys.
	"SDiffStore": m("SDIFFSTORE", key(1), variadic(2)), "SInterStore": m("SINTERSTORE", key(1), variadic(2)),
	"SUnionStore": m("SUNIONSTORE", key(1), variadic(2)),
	"ZDiffStore":  m("ZDIFFSTORE", key(1), variadic(2)),
	"ZInterStore": m("ZINTERSTORE", key(1), fieldList(2, "Keys")), "ZUnionStore": m("ZUNIONSTORE", key(1), fieldList(2, "Keys")),
	"PFMerge":  m("PFMERGE", key(1), variadic(2)),
	"BitOpAnd": m("BITOP AND", key(1), variadic(2)), "BitOpOr": m("BITOP OR", key(1), variadic(2)),
	"BitOpXor": m("BITOP XOR", key(1), variadic(2)), "BitOpNot": m("BITOP NOT", key(1), key(2)),
	"BitOpDiff": m("BITOP DIFF", key(1), variadic(2)), "BitOpDiff1": m("BITOP DIFF1", key(1), variadic(2)),
	"BitOpAndOr": m("BITOP ANDOR", key(1), variadic(2)), "BitOpOne": m("BITOP ONE", key(1), variadic(2)),

	// Two keys.
	"Rename": m("RENAME", key(1), key(2)), "RenameNX": m("RENAMENX", key(1), key(2)),
	"Copy":  m("COPY", key(1), key(2)),
	"SMove": m("SMOVE", key(1), key(2)),
	"LMove": m("LMOVE", key(1), key(2)), "BLMove": m("BLMOVE", key(1), key(2)),
	"RPopLPush": m("RPOPLPUSH", key(1), key(2)), "BRPopLPush": m("BRPOPLPUSH", key(1), key(2)),
	"SortStore":              m("SORT", key(1), key(2)),
	"GeoSearchStore":         m("GEOSEARCHSTORE", key(2), key(1)),
	"GeoRadiusStore":         m("GEORADIUS", key(1), field(4, "Store"), field(4, "StoreDist")),
	"GeoRadiusByMemberStore": m("GEORADIUSBYMEMBER", key(1), field(3, "Store"), field(3, "StoreDist")),
	"ZRangeStore":            m("ZRANGESTORE", key(1), field(2, "Key")),
	"LCS":                    m("LCS", field(1, "Key1"), field(1, "Key2")),
	"XRead":                  m("XREAD", streams(1, "Streams")),
	"XReadGroup":             m("XREADGROUP", streams(1, "Streams")),
	"XReadStreams":           m("XREAD", streams(1, "")),
	"LMoveM":                 m("LMOVEM", key(1), key(2)),
	"BLMoveM":                m("BLMOVEM", key(1), key(2)),

	// Module commands (RedisJSON, RedisBloom, t-digest, RedisTimeSeries):
	// Redis Cluster checks their keys like any other command's.
	"JSONMGet":             m("JSON.MGET", variadic(2)),
	"CMSMerge":             m("CMS.MERGE", key(1), variadic(2)),
	"CMSMergeWithWeight":   m("CMS.MERGE", key(1), argSpec{kind: argMapKeys, i: 2}),
	"TDigestMerge":         m("TDIGEST.MERGE", key(1), variadic(3)),
	"TSCreateRule":         m("TS.CREATERULE", key(1), key(2)),
	"TSCreateRuleWithArgs": m("TS.CREATERULE", key(1), key(2)),
	"TSDeleteRule":         m("TS.DELETERULE", key(1), key(2)),

	// Several key-value pairs.
	"MSet": m("MSET", pairs(1)), "MSetNX": m("MSETNX", pairs(1)), "MSetEX": m("MSETEX", pairs(2)),

	// Scripts and functions on a client: keys is a []string.
	"Eval": scriptArgs("EVAL", 2), "EvalSha": scriptArgs("EVALSHA", 2),
	"EvalRO": scriptArgs("EVAL_RO", 2), "EvalShaRO": scriptArgs("EVALSHA_RO", 2),
	"FCall": scriptArgs("FCALL", 2), "FCallRO": scriptArgs("FCALL_RO", 2), "FCallRo": scriptArgs("FCALL_RO", 2),
}

// newerCommands are multi-key commands of Redis versions after the one
// the command table was generated from, and module commands; go-redis has
// methods for them.
var newerCommands = map[string]bool{
	"MSETEX": true, "SDIFFCARD": true, "SUNIONCARD": true, "LMOVEM": true, "BLMOVEM": true,
	"JSON.MGET": true, "CMS.MERGE": true, "TDIGEST.MERGE": true, "TS.CREATERULE": true, "TS.DELETERULE": true,
}

// scriptMethods are (*Script) methods: keys after the context and the
// client.
var scriptMethods = map[string]method{
	"Run": scriptArgs("EVALSHA", 2), "RunRO": scriptArgs("EVALSHA_RO", 2),
	"Eval": scriptArgs("EVAL", 2), "EvalSha": scriptArgs("EVALSHA", 2),
	"EvalRO": scriptArgs("EVAL_RO", 2), "EvalShaRO": scriptArgs("EVALSHA_RO", 2),
}

// scriptCommands are the commands that run a script or function.
var scriptCommands = map[string]bool{
	"EVAL": true, "EVALSHA": true, "EVAL_RO": true, "EVALSHA_RO": true, "FCALL": true, "FCALL_RO": true,
}
