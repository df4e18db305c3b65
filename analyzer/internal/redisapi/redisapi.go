package redisapi

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/slotlint/slotlint/analyzer/internal/analyzerdoc"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/slot"
)

// Call is one Redis command sent from Go.
type Call struct {
	Node *ast.CallExpr
	// Method is how the call is written in Go ("MGet", "Script.Run",
	// "Do"), for messages only: what a rule does depends on the command
	// and the fields below, never on the client's method names
	// (analyzer's TestLayering checks the rule packages).
	Method  string
	Command string // the Redis command, e.g. "MGET"
	// MultiKey: the command may take several keys, so its keys must share
	// a slot.
	MultiKey bool
	// Script: EVAL, EVALSHA, FCALL and their read-only forms. Source is
	// then what names the script: the script text, SHA1 or function name
	// argument, or, when ScriptValue, the script value the call runs.
	Script bool
	Source ast.Expr
	// ScriptValue: the call runs a script value (a go-redis or redigo
	// Script) rather than a command argument, and Source is that value, or
	// the text the front end followed it to. The value's text runs even
	// when only its SHA1 is sent.
	ScriptValue bool
	// Argv, when ArgvKnown, is what a script call passes as ARGV, one
	// expression per argument.
	Argv      []ast.Expr
	ArgvKnown bool
	// KeysArg is the one expression a script call's keys are passed in
	// (a []string), and ArgvArg the one ARGV is spread from (args...),
	// when the call is written that way: a helper that runs the script it
	// is given passes its own parameters there.
	KeysArg, ArgvArg ast.Expr
	Keys             []keyexpr.Elem
	// Complete is false when some keys could not be resolved.
	Complete bool
	// Client is the library the call is made with.
	Client Client
	// SplitBySlot: the client sends the command once per slot of its keys
	// (go-redis's cluster client configured with NewDynamicResolver, for a
	// MultiShard command). Keys in different slots then succeed, but the
	// command is not atomic.
	SplitBySlot bool
	// Set describes a SET-family command's condition and expiry; nil for
	// other commands or when it cannot be read. Value is the value a SET
	// or an HSET of one field writes, Field the field of HGET and HSET.
	Set          *SetOptions
	Value, Field ast.Expr
	// Expiry is the expiry an EXPIRE-family command sets, when the client
	// takes it as a time.Duration (go-redis Expire and PExpire): the type a
	// SET's expiry takes in SetOptions.ZeroTTL and Options.
	Expiry ast.Expr
	// Tx is the transaction the command is queued in, if any; Loop is the
	// loop inside that transaction that repeats the command.
	Tx   *Tx
	Loop ast.Node
	// On is the client value the command is sent on (a pipeliner, a
	// connection), when the front end can name it: a function sending on a
	// parameter is summarised for its callers (helpers.go).
	On ast.Expr
	// OnPipeline: the command is sent on a pipeline or transaction value
	// made from a client (go-redis's Pipeliner, Pipeline or Tx), which
	// sends on that client's connections rather than being a client of its
	// own. OnWatchTx: that value is one that exists only inside a WATCH
	// block (go-redis's Tx, given to a Watch callback), whose commands
	// queued with TxPipelined fail when a watched key changed, whether or
	// not the callback is seen next to its Watch call.
	OnPipeline, OnWatchTx bool
	// Companions are keys the callee derives from one of Keys and needs in
	// that key's slot: the runtime's lock wake-up list, which shares the
	// lock key's slot only when the lock key has a hash tag.
	Companions []Companion
	// NodeWide: a command with no key that acts on the whole keyspace,
	// the function libraries or the configuration of the one server that
	// runs it (KEYS, SCAN, FLUSHDB, FLUSHALL, FUNCTION LOAD, DELETE and
	// FLUSH, CONFIG SET). Such calls are recorded only when sent on a
	// client that may be a cluster client (Reach).
	NodeWide bool
	// Reach is what the value a NodeWide command is sent on can be.
	Reach Reach
	// FollowsPolicies: a NodeWide call is made on a cluster client
	// visibly configured to follow the server's request policies (see
	// MultiShard).
	FollowsPolicies bool
}

// Reach is what kind of client a command is sent on, as far as its
// routing of keyless commands goes.
type Reach uint8

const (
	ReachUnknown Reach = iota
	// ReachCluster: a cluster client (go-redis's ClusterClient), which
	// sends a command with no key to one master it picks.
	ReachCluster
	// ReachMaybeCluster: an interface that a cluster client and a client
	// of one server both satisfy (go-redis's UniversalClient).
	ReachMaybeCluster
	// ReachRing: go-redis's Ring, which shards keys over servers in the
	// client and sends a command with no key to one shard it picks, built
	// in place with several shards.
	ReachRing
	// ReachMaybeRing: a Ring whose shards are not written in place (one
	// shard routes like a plain client).
	ReachMaybeRing
)

// Companion is a key derived from a key the caller passed.
type Companion struct {
	Of  keyexpr.Elem // the key as passed, one of the call's Keys
	Key slot.Key     // the key derived from it
	// What names the derived key for messages ("wake-up list").
	What string
}

// Tx is one MULTI/EXEC transaction or WATCH block.
type Tx struct {
	Node *ast.CallExpr // TxPipelined, TxPipeline or Watch
	// Method is how the transaction is written in Go ("TxPipelined",
	// "MULTI"), for messages only.
	Method string
	// Watch: a WATCH block, whose EXEC fails when a watched key changed
	// (go-redis Watch, or MULTI/EXEC after WATCH).
	Watch   bool
	Watched []keyexpr.Elem
	// OneNode: the transaction runs on a client of one server (go-redis's
	// plain Client), which serves every slot: its keys cannot be refused
	// with CROSSSLOT.
	OneNode       bool
	WatchComplete bool
	Calls         []*Call
	body          [2]token.Pos
	// runs, when some commands exclude each other, lists the sets of
	// Calls (indices) one run can queue together (txruns.go).
	runs [][]int
}

// Result is every Redis call of the package, in source order.
type Result struct {
	Calls []*Call
	Txs   []*Tx
	Keys  *keyexpr.Extractor
	// handOffs are the calls passing an open transaction to a function.
	handOffs []handOff
	// ins walks the package's files for the front ends.
	ins  *inspector.Inspector
	info *types.Info
}

// Analyzer collects the calls; rule analyzers require it.
var Analyzer = &analysis.Analyzer{
	Name:       "slotlintcalls",
	Doc:        analyzerdoc.MustExtract(doc, "slotlintcalls"),
	Run:        run,
	Requires:   []*analysis.Analyzer{keyexpr.Analyzer},
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{new(Queues), new(ClientsUsed)},
}

// doc is the package comment that Doc is taken from.
//
//go:embed doc.go
var doc string
