// Package rules is the catalogue of slotlint's Go rules: stable IDs, titles
// and structured documentation. It is the single source of truth that the
// analyzers' Category fields, the -disable flag, the suppression comments and
// the rendered rule docs all read.
package rules

import "sort"

// Rule IDs. They are stable once shipped: a rule that changes meaning gets
// a new ID. Code names a rule by its constant, never by its text.
const (
	SlotsDiffer      = "SL1001"
	NoCommonTag      = "SL1002"
	TxSlots          = "SL1003"
	ScriptKeySlots   = "SL1004"
	UnresolvedKeys   = "SL1005"
	OneMaster        = "SL1006"
	ConstantTag      = "SL1101"
	EmptyTag         = "SL1102"
	IgnoredTag       = "SL1103"
	MixedTags        = "SL1104"
	UnclosedTag      = "SL1105"
	ScriptKeyCount   = "SL1201"
	LuaInGo          = "SL1202" // the Lua checker's findings in scripts held in Go, under their LUA IDs
	NoScriptKeys     = "SL1203"
	LockWithoutTTL   = "SL1301"
	UncheckedRelease = "SL1302"
	FixedRetry       = "SL1303"
	LostUpdate       = "SL1304"
	CounterNoTTL     = "SL1305"
)

// Rule describes one check. IDs are stable once shipped.
type Rule struct {
	ID    string
	Title string
	// Analyzer is the name of the analyzer that reports the rule.
	Analyzer string
	// What the rule finds, Why it matters (with the error Redis returns),
	// a Bad and a Good example, how to Fix it.
	What, Why, Bad, Good, Fix string
}

// Suppress is how any rule is silenced at one place; the reason is required.
const Suppress = "//slotlint:ignore ID reason (on the line or the line above)"

var catalogue = []Rule{
	{
		ID: SlotsDiffer, Title: "keys of one command provably hash to different slots", Analyzer: "crossslot",
		What: "A multi-key command whose keys' slots are both computable and differ. The runtime's operations count as commands: Client.MaxUpdate's value and dirty set, Client.LockAndSet's lock and state keys; and a lock key of Client.Obtain or LockAndSet without a hash tag, whose wake-up list (the key + \":wake\") is then in another slot.",
		Why:  "Redis Cluster rejects the command with \"CROSSSLOT Keys in request don't hash to the same slot\"; managed endpoints behind a plain client do the same. A go-redis cluster client visibly configured to follow the server's request policies (SetCommandInfoResolver(NewDynamicResolver()), go-redis v9.18 and later) sends MGET, EXISTS, TOUCH, DEL, UNLINK, MSET and MSETNX once per slot instead: reads are then not reported, and writes are reported because they are no longer atomic.",
		Bad:  `rdb.MGet(ctx, "user:1", "user:2")`,
		Good: `rdb.MGet(ctx, "{user}:1", "{user}:2") // or one GET per key`,
		Fix:  "Give the keys a common hash tag, or issue one command per key (a pipeline is split per node and is fine). The runtime fails such operations with ErrCrossSlot before any round trip; build its lock keys with runtime.Key(family, id, parts...) (offered as a suggested fix, or {} around a constant key with no ':').",
	},
	{
		ID: NoCommonTag, Title: "keys of one command share no hash tag", Analyzer: "crossslot",
		What: "A multi-key command whose keys are not proven to share a slot: they carry no common hash tag. The runtime's operations count as commands (see SL1001), and a runtime lock key built without a hash tag (\"order:\" + id + \":lock\") shares no tag with its wake-up list.",
		Why:  "For most inputs the keys land in different slots and Redis Cluster answers \"CROSSSLOT Keys in request don't hash to the same slot\". Through a go-redis cluster client configured with SetCommandInfoResolver(NewDynamicResolver()), MGET, EXISTS and TOUCH are split per slot and not reported, and DEL, UNLINK, MSET and MSETNX are split too and reported as writes that are not atomic.",
		Bad:  `rdb.SInterStore(ctx, "dst:"+id, "a:"+id, "b:"+id)`,
		Good: `rdb.SInterStore(ctx, "dst:{"+id+"}", "a:{"+id+"}", "b:{"+id+"}")`,
		Fix:  "Wrap the part the keys share in {} (offered as a suggested fix when the keys are built in place), or split the command. A runtime lock key built in place becomes runtime.Key(\"order\", id, \"lock\") (a suggested fix).",
	},
	{
		ID: TxSlots, Title: "MULTI/EXEC or WATCH across keys that do not share a slot", Analyzer: "txslot",
		What: "A transaction (TxPipelined, TxPipeline()...Exec, Watch, redigo MULTI...EXEC) whose queued commands and watched keys are not all in one slot, including the commands of helper functions, of this package or another, that it hands its pipeliner or connection to.",
		Why:  "Redis Cluster aborts the transaction: queued commands get \"CROSSSLOT\" and EXEC answers \"EXECABORT\"; go-redis's cluster Watch refuses keys of several slots. go-redis's cluster client does not send such a transaction: from v9.11 its TxPipeline and TxPipelined fail with redis.ErrCrossSlot before sending anything; before v9.11 they split it into one MULTI/EXEC per slot without a word, so each part ran and the whole was not atomic.",
		Bad:  "rdb.TxPipelined(ctx, func(p redis.Pipeliner) error { p.Incr(ctx, \"hits:\"+id); p.Incr(ctx, \"total\"); return nil })",
		Good: "rdb.TxPipelined(ctx, func(p redis.Pipeliner) error { p.Incr(ctx, \"hits:{\"+id+\"}\"); p.Incr(ctx, \"total:{\"+id+\"}\"); return nil })",
		Fix:  "Tag every key of the transaction with the same hash tag, or use a plain pipeline when atomicity is not needed.",
	},
	{
		ID: ScriptKeySlots, Title: "script keys that do not share a slot", Analyzer: "scriptkeys",
		What: "EVAL, EVALSHA, Script.Run or FCALL called with keys that are not proven to share a slot.",
		Why:  "Redis Cluster rejects the call with \"CROSSSLOT Keys in request don't hash to the same slot\".",
		Bad:  `script.Run(ctx, rdb, []string{"lock:" + id, "owner:" + id}, token)`,
		Good: `script.Run(ctx, rdb, []string{"lock:{" + id + "}", "owner:{" + id + "}"}, token)`,
		Fix:  "Tag the keys with a common hash tag.",
	},
	{
		ID: UnresolvedKeys, Title: "multi-key command whose keys cannot be resolved", Analyzer: "crossslot",
		What: "A multi-key command whose keys come from somewhere the analyzer cannot follow (a []string parameter, a function result). Reported only with -slotlint.strict.",
		Why:  "Nothing proves the keys share a slot; on a cluster the command may fail with CROSSSLOT.",
		Bad:  `func load(keys []string) { rdb.MGet(ctx, keys...) }`,
		Good: `func load(id string) { rdb.MGet(ctx, "a:{"+id+"}", "b:{"+id+"}") }`,
		Fix:  "Build the keys where they are used, or suppress with the reason the caller guarantees one slot.",
	},
	{
		ID: OneMaster, Title: "command on the whole keyspace sent through a cluster client", Analyzer: "nodewide",
		What: "KEYS, SCAN, FLUSHDB, FLUSHALL, FUNCTION LOAD, FUNCTION DELETE, FUNCTION FLUSH or CONFIG SET called on a go-redis ClusterClient, or on a value a ClusterClient may be behind: a UniversalClient (unless built in place with options that make a plain or failover client), go-redis's Cmdable, or an interface of the application's code that embeds go-redis's interfaces (outside test files, where such a value is a test server's client); and on a go-redis Ring, which shards keys over servers in the client (there DBSIZE too; not a Ring built in place with one address, and in test files only one built in place with several). These commands have no key, and each acts on the keyspace, the function libraries or the configuration of the one server that runs it.",
		Why:  "go-redis's cluster client sends a command with no key to one master it picks, and answers with that master's reply: KEYS and a SCAN loop return the keys of one master only, FLUSHDB and FLUSHALL empty one master, FUNCTION LOAD loads the library on one master, so FCALL fails with \"Function not found\" for keys of the others, FUNCTION DELETE and FLUSH leave the other masters serving the old functions, and CONFIG SET changes one master's configuration (checked with go-redis v9.23.0 on a 3-master cluster: a third of the keys, two thirds of FCALLs failing, notify-keyspace-events set on 1 master of 3). Configured with SetCommandInfoResolver(NewDynamicResolver()), the client sends FLUSHDB and FLUSHALL to every master, which is not reported; KEYS then answers an empty list and the other commands still reach one master. A Ring sends them, and DBSIZE, to one shard it picks, with the same effects on that shard (checked on three servers: KEYS and DBSIZE see one shard's keys, CONFIG SET reaches 1 shard of 3).",
		Bad:  `keys, err := rdb.Keys(ctx, "session:*").Result() // rdb is a *redis.ClusterClient`,
		Good: `err := rdb.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error { return scanAll(ctx, m, "session:*") })`,
		Fix:  "Run the command on each master with ForEachMaster (SCAN with a cursor per master, FLUSHDB, FUNCTION LOAD, CONFIG SET), or on each shard of a Ring with ForEachShard; or keep an index of the keys in a set instead of listing the keyspace.",
	},
	{
		ID: ConstantTag, Title: "constant hash tag on a variable key family", Analyzer: "hashtag",
		What: "A key whose hash tag is fixed text while other parts vary, e.g. \"{cart}:\" + id.",
		Why:  "Every key of the family hashes to one slot, so one shard holds all of them: a hot shard that no resharding can spread.",
		Bad:  `rdb.Get(ctx, "{cart}:"+userID)`,
		Good: `rdb.Get(ctx, "cart:{"+userID+"}")`,
		Fix:  "Tag the varying part (the entity id) instead of the constant.",
	},
	{
		ID: EmptyTag, Title: "empty hash tag", Analyzer: "hashtag",
		What: "A key whose first '{' is followed at once by '}'.",
		Why:  "Redis ignores an empty tag and hashes the whole key, so keys meant to share a slot do not.",
		Bad:  `rdb.Get(ctx, "user:{}"+id)`,
		Good: `rdb.Get(ctx, "user:{"+id+"}")`,
		Fix:  "Put the shared part between the braces.",
	},
	{
		ID: IgnoredTag, Title: "hash tag that Redis ignores", Analyzer: "hashtag",
		What: "A second {...} after the first tag, or a value of unknown text before the first '{', such as a configurable prefix: by default once per key family where the package visibly gives that value a brace (a constant, an option, an argument of a function it reaches), and under -slotlint.strict or -slotlint.braces once per key family whatever its value.",
		Why:  "Redis only looks at the first '{' and the first '}' after it; later tags are plain text, and an unknown prefix containing a brace moves the tag.",
		Bad:  `rdb.Get(ctx, "{user:"+id+"}:{cart}")`,
		Good: `rdb.Get(ctx, "{user:"+id+"}:cart")`,
		Fix:  "Keep one tag per key, and put it before any part whose text is not fixed.",
	},
	{
		ID: MixedTags, Title: "key family used with and without a tag, or with different tags", Analyzer: "hashtag",
		What: "Keys of one shape (the same literal text, the same places for values) tagged differently in one package.",
		Why:  "The two spellings are different keys in different slots: data written through one is not found through the other, and multi-key commands mixing them fail with CROSSSLOT.",
		Bad:  `rdb.Set(ctx, "user:{"+id+"}:cart", v, 0); rdb.Get(ctx, "user:"+id+":cart")`,
		Good: `rdb.Set(ctx, "user:{"+id+"}:cart", v, 0); rdb.Get(ctx, "user:{"+id+"}:cart")`,
		Fix:  "Build the family's keys in one helper function.",
	},
	{
		ID: UnclosedTag, Title: "unclosed hash tag", Analyzer: "hashtag",
		What: "A key with a '{' and no '}' after it.",
		Why:  "There is no tag at all: Redis hashes the whole key. It is almost always a typo.",
		Bad:  `rdb.Get(ctx, "user:{"+id+":cart")`,
		Good: `rdb.Get(ctx, "user:{"+id+"}:cart")`,
		Fix:  "Close the tag.",
	},
	{
		ID: ScriptKeyCount, Title: "script called with fewer keys than it reads, or more than it uses", Analyzer: "luascript",
		What: "A call of a script whose text the package holds (NewScript, Eval, //go:embed, FunctionLoad + FCall) that passes fewer keys than the highest KEYS[n] the script reads, or passes keys the script never reads.",
		Why:  "KEYS[n] past the keys passed is nil in Lua, so the command fails or acts on the wrong key; a passed key the script ignores still decides which node a cluster client sends the call to, and the keys the script does touch may live elsewhere.",
		Bad:  "var get = redis.NewScript(`return redis.call('GET', KEYS[2])`)\nget.Run(ctx, rdb, []string{key})",
		Good: "var get = redis.NewScript(`return redis.call('GET', KEYS[1])`)\nget.Run(ctx, rdb, []string{key})",
		Fix:  "Pass exactly the keys the script reads, in the order it reads them.",
	},
	{
		ID: LuaInGo, Title: "a Lua finding inside a script held in Go code", Analyzer: "luascript",
		What: "The Lua checker's findings (LUA001-LUA403) in a script written in Go (a string literal, constant, concatenation) or embedded with //go:embed, reported at the Go line under the LUA rule's ID. Keys the script derives from KEYS or builds from ARGV (LUA202, LUA201) are judged at each call with the keys and arguments it passes: reported there only when they are not proven to share the slot of the script's KEYS.",
		Why:  "A script fails at run time on Redis, not at compile time: a key built as KEYS[1] .. ':lock' is in another slot unless the caller's KEYS[1] carries a hash tag, and Redis Cluster then answers with a cross-slot or non-local key error.",
		Bad:  "var lock = redis.NewScript(`return redis.call('SET', KEYS[1] .. ':lock', ARGV[1])`)\nlock.Run(ctx, rdb, []string{\"job:\" + id}, token)",
		Good: "var lock = redis.NewScript(`return redis.call('SET', KEYS[1] .. ':lock', ARGV[1])`)\nlock.Run(ctx, rdb, []string{\"job:{\" + id + \"}\"}, token)",
		Fix:  "Fix the script as the LUA rule says, or tag the keys the caller passes; -slotlint.disable SL1202 silences every Lua finding, //slotlint:ignore LUA201 reason one at its Go line, -- slotlint:ignore LUA201 reason one inside the script.",
	},
	{
		ID: NoScriptKeys, Title: "script called with zero keys", Analyzer: "scriptkeys",
		What: "EVAL, EVALSHA, Script.Run or FCALL with no keys, when the script may touch a key or its text is not known. A script that only computes or returns (return ARGV[1], a function that only returns) runs the same on any master and is not reported.",
		Why:  "A cluster client routes a keyless script to an arbitrary master; any key the script touches may live elsewhere (MOVED, or CROSSSLOT with a #!lua shebang).",
		Bad:  `script.Run(ctx, rdb, nil, "user:"+id)`,
		Good: `script.Run(ctx, rdb, []string{"user:{" + id + "}"})`,
		Fix:  "Pass every key the script touches in KEYS.",
	},
	{
		ID: LockWithoutTTL, Title: "SETNX then EXPIRE: lock without TTL if the process dies between", Analyzer: "lockcheck",
		What: "A key set with NX and no expiry (SetNX with expiration 0, SetArgs{Mode: \"NX\"} without TTL, SETNX) that EXPIRE or PEXPIRE gives a TTL on a later step.",
		Why:  "A crash, a deploy or a dropped connection between the two commands leaves a lock that never expires: every later acquisition fails until someone deletes the key by hand.",
		Bad:  "ok, _ := rdb.SetNX(ctx, key, token, 0).Result()\nif ok { rdb.Expire(ctx, key, 10*time.Second) }",
		Good: "ok, _ := rdb.SetNX(ctx, key, token, 10*time.Second).Result() // SET key token NX PX 10000",
		Fix:  "Set the TTL in the same command (offered as a suggested fix for go-redis when both calls are in one function): SetNX(ctx, key, value, ttl) with go-redis, Do(\"SET\", key, token, \"NX\", \"PX\", ms) with redigo, B().Set().Key(key).Value(token).Nx().Px(ttl).Build() with rueidis and valkey-go; or take the lock with runtime's Client.Obtain, rueidislock or valkeylock.",
	},
	{
		ID: UncheckedRelease, Title: "lock released by DEL without an owner check, or GET-compare-DEL", Analyzer: "lockcheck",
		What: "DEL or UNLINK of a lock key (a key family the package sets with NX and an expiry) outside a WATCH transaction or a script, with no owner check or after a GET and a comparison in Go.",
		Why:  "Once the lock has expired and another client holds it, an unchecked DEL deletes that client's lock; with GET, compare, DEL the lock can change hands between the GET and the DEL. Two clients then run the critical section at once.",
		Bad:  "if v, _ := rdb.Get(ctx, key).Result(); v == token { rdb.Del(ctx, key) }",
		Good: "lock, err := locks.Obtain(ctx, key, ttl, nil) // runtime.Client\n...\ndefer lock.Release(ctx)",
		Fix:  "Release with runtime's Lock.Release (go-redis), rueidislock or valkeylock, or a script (redis.NewScript with redigo, NewLuaScript with rueidis and valkey-go) that deletes the key only while it still holds this owner's token.",
	},
	{
		ID: FixedRetry, Title: "lock retry loop with a constant sleep (no backoff, no jitter)", Analyzer: "lockcheck",
		What: "A loop around a lock acquisition (SET NX) that ends once the lock is taken and waits a duration the loop never changes between attempts: time.Sleep, time.After, time.Tick or a ticker.",
		Why:  "Clients that lose the race together retry together: they hit the key's shard in lockstep, waste round trips while the holder works, and the same client can lose again and again.",
		Bad:  "for { if ok, _ := rdb.SetNX(ctx, key, token, ttl).Result(); ok { break }; time.Sleep(5 * time.Millisecond) }",
		Good: "lock, err := locks.Obtain(ctx, key, ttl, nil) // exponential backoff with full jitter, bounded by ctx",
		Fix:  "Grow the wait exponentially and add random jitter, or use runtime's Client.Obtain.",
	},
	{
		ID: LostUpdate, Title: "GET then SET of the same key with no WATCH or script (lost update)", Analyzer: "lockcheck",
		What: "GET then SET of one key (or HGET then HSET of one field) where the written value, or whether the write happens, depends on what was read, outside WATCH and scripts.",
		Why:  "Client A reads, client B reads, A writes, B writes over it: A's update is lost (a counter misses increments, a maximum goes back down).",
		Bad:  "cur, _ := rdb.Get(ctx, key).Int64()\nif v > cur { rdb.Set(ctx, key, v, 0) }",
		Good: "rose, err := counters.MaxUpdate(ctx, key, dirtySet, id, v) // runtime.Client: one script",
		Fix:  "Use an atomic command (INCRBY, HINCRBY), runtime's Client.MaxUpdate for a running maximum, a script, or WATCH with TxPipelined retried on redis.TxFailedErr.",
	},
	{
		ID: CounterNoTTL, Title: "INCR, then EXPIRE at one count only: counter without TTL if the process dies between", Analyzer: "lockcheck",
		What: "A counter (INCR, INCRBY, INCRBYFLOAT, DECR, DECRBY, HINCRBY, HINCRBYFLOAT) given its TTL by a separate EXPIRE, PEXPIRE, EXPIREAT or PEXPIREAT of the same key that runs for one count of the increment's reply only (if n == 1, the first hit of a window; if n == limit, a ban that starts at the limit), outside a MULTI/EXEC that holds both. An EXPIRE that runs after every increment, or after every one under a limit (if n > limit { return }), is not reported: the next such call sets a lost TTL again. Nor is one that a TTL or PTTL read of the key also decides (a repair of a missing TTL), nor a counter whose key is built from time.Now (a key per window, as rate:<ip>:<minute>: a lost TTL leaves one past window's key behind, and the next window counts in a new key).",
		Why:  "A crash, a deploy, a timeout or a dropped connection between the two commands leaves the counter with no TTL, and only that one count sets it: the key never expires and keeps counting. A fixed-window limiter then refuses that caller for good, and a counter of attempts locks the account until someone deletes the key by hand.",
		Bad:  "n, _ := rdb.Incr(ctx, key).Result()\nif n == 1 { rdb.Expire(ctx, key, time.Minute) }",
		Good: "var incr *redis.IntCmd\nrdb.TxPipelined(ctx, func(p redis.Pipeliner) error {\n\tincr = p.Incr(ctx, key)\n\tp.ExpireNX(ctx, key, time.Minute) // EXPIRE NX: the window stays fixed\n\treturn nil\n})",
		Fix:  "Send the increment and EXPIRE ... NX (Redis 7) in one MULTI/EXEC (TxPipelined with ExpireNX in go-redis), so both run or neither and a lost TTL is set again by the next call; or use runtime's Client.IncrWindow (go-redis), which does both in one script and gives a counter found without a TTL the window's; or run both in a script of your own (INCRBY, then PEXPIRE when PTTL is -1).",
	},
}

var byID = func() map[string]*Rule {
	m := make(map[string]*Rule, len(catalogue))
	for i := range catalogue {
		m[catalogue[i].ID] = &catalogue[i]
	}
	return m
}()

// All returns every rule, ordered by ID.
func All() []Rule {
	out := append([]Rule(nil), catalogue...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup returns the rule with the given ID.
func Lookup(id string) (Rule, bool) {
	r, ok := byID[id]
	if !ok {
		return Rule{}, false
	}
	return *r, true
}

// Of returns the IDs reported by the named analyzer.
func Of(analyzer string) []string {
	var ids []string
	for _, r := range All() {
		if r.Analyzer == analyzer {
			ids = append(ids, r.ID)
		}
	}
	return ids
}
