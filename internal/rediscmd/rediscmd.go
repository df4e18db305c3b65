// Package rediscmd is Redis's command table as Redis itself describes it
// (COMMAND INFO and COMMAND DOCS): arity, flags, ACL categories and key
// specs, generated from a real server by ./gen and shared by the Go analyzer
// and the Lua checker, so both agree on which arguments are keys and which
// commands write, block or are dangerous in a script.
package rediscmd

//go:generate go run ./gen -out table_gen.go

import (
	"strconv"
	"strings"
	"sync"
)

// Flag is a command flag from COMMAND INFO.
type Flag uint32

// Command flags, named as Redis names them.
const (
	FlagWrite Flag = 1 << iota
	FlagReadonly
	FlagDenyOOM
	FlagModule
	FlagAdmin
	FlagPubsub
	FlagNoscript
	FlagBlocking
	FlagLoading
	FlagStale
	FlagSkipMonitor
	FlagSkipSlowlog
	FlagAsking
	FlagFast
	FlagNoAuth
	FlagMayReplicate
	FlagSentinel
	FlagOnlySentinel
	FlagNoMandatoryKeys
	FlagProtected
	FlagModuleNoCluster
	FlagNoMulti
	FlagMovableKeys
	FlagAllowBusy
	FlagNoAsyncLoading
)

// FlagNames maps Redis's flag names to flags; the generator rejects names
// it does not know so a new Redis flag is never dropped silently.
var FlagNames = map[string]Flag{
	"write": FlagWrite, "readonly": FlagReadonly, "denyoom": FlagDenyOOM,
	"module": FlagModule, "admin": FlagAdmin, "pubsub": FlagPubsub,
	"noscript": FlagNoscript, "blocking": FlagBlocking, "loading": FlagLoading,
	"stale": FlagStale, "skip_monitor": FlagSkipMonitor, "skip_slowlog": FlagSkipSlowlog,
	"asking": FlagAsking, "fast": FlagFast, "no_auth": FlagNoAuth,
	"may_replicate": FlagMayReplicate, "sentinel": FlagSentinel,
	"only_sentinel": FlagOnlySentinel, "no_mandatory_keys": FlagNoMandatoryKeys,
	"protected": FlagProtected, "module_no_cluster": FlagModuleNoCluster,
	"no_multi": FlagNoMulti, "movablekeys": FlagMovableKeys, "allow_busy": FlagAllowBusy,
	"no_async_loading": FlagNoAsyncLoading,
}

// ACL is a set of ACL categories.
type ACL uint32

// ACL categories, named as Redis names them without the '@'.
const (
	ACLKeyspace ACL = 1 << iota
	ACLRead
	ACLWrite
	ACLSet
	ACLSortedSet
	ACLList
	ACLHash
	ACLString
	ACLBitmap
	ACLHyperLogLog
	ACLGeo
	ACLStream
	ACLPubsub
	ACLAdmin
	ACLFast
	ACLSlow
	ACLBlocking
	ACLDangerous
	ACLConnection
	ACLTransaction
	ACLScripting
)

// ACLNames maps category names (without '@') to categories.
var ACLNames = map[string]ACL{
	"keyspace": ACLKeyspace, "read": ACLRead, "write": ACLWrite, "set": ACLSet,
	"sortedset": ACLSortedSet, "list": ACLList, "hash": ACLHash, "string": ACLString,
	"bitmap": ACLBitmap, "hyperloglog": ACLHyperLogLog, "geo": ACLGeo, "stream": ACLStream,
	"pubsub": ACLPubsub, "admin": ACLAdmin, "fast": ACLFast, "slow": ACLSlow,
	"blocking": ACLBlocking, "dangerous": ACLDangerous, "connection": ACLConnection,
	"transaction": ACLTransaction, "scripting": ACLScripting,
}

// KeyFlag describes how a key spec's keys are used.
type KeyFlag uint16

// Key spec flags, named as Redis names them.
const (
	KeyRO KeyFlag = 1 << iota
	KeyRW
	KeyOW
	KeyRM
	KeyAccess
	KeyUpdate
	KeyInsert
	KeyDelete
	KeyNotKey
	KeyIncomplete
	KeyVariableFlags
)

// KeyFlagNames maps Redis's key spec flag names to flags.
var KeyFlagNames = map[string]KeyFlag{
	"RO": KeyRO, "RW": KeyRW, "OW": KeyOW, "RM": KeyRM, "access": KeyAccess,
	"update": KeyUpdate, "insert": KeyInsert, "delete": KeyDelete,
	"not_key": KeyNotKey, "incomplete": KeyIncomplete, "variable_flags": KeyVariableFlags,
}

// BeginKind is how a key spec finds its first key.
type BeginKind uint8

const (
	BeginUnknown BeginKind = iota // Redis finds the keys with code, not a spec
	BeginIndex                    // at a fixed argument index
	BeginKeyword                  // right after a keyword
)

// FindKind is how a key spec finds the keys after the first.
type FindKind uint8

const (
	FindUnknown FindKind = iota
	FindRange            // a range of arguments
	FindKeyNum           // a count argument followed by that many keys
)

// KeySpec is one key specification of a command (COMMAND INFO's key_specs).
type KeySpec struct {
	Flags KeyFlag

	Begin BeginKind
	// Index is the argument index of the first key for BeginIndex; argument
	// 0 is the command name.
	Index int
	// Keyword and StartFrom locate BeginKeyword: search for Keyword from
	// argument StartFrom, backwards from the end when it is negative.
	Keyword   string
	StartFrom int

	Find FindKind
	// LastKey, KeyStep and Limit describe FindRange as Redis does.
	LastKey, KeyStep, Limit int
	// KeyNumIdx, FirstKey and KeyStep describe FindKeyNum.
	KeyNumIdx, FirstKey int
}

// Command is one Redis command or subcommand.
type Command struct {
	// Name is upper case; a subcommand's is "CONTAINER|SUB", as Redis names it.
	Name     string
	Arity    int
	Flags    Flag
	ACL      ACL
	Group    string
	Since    string
	KeySpecs []KeySpec
	// Subcommands are keyed by upper-case subcommand name.
	Subcommands map[string]*Command
}

// Has reports whether the command has all of the flags f.
func (c *Command) Has(f Flag) bool { return c.Flags&f == f }

// InACL reports whether the command is in all of the categories a.
func (c *Command) InACL(a ACL) bool { return c.ACL&a == a }

// table is the generated command table, built on first use.
var table = sync.OnceValue(buildTable)

// Lookup returns the command named name, case-insensitively.
func Lookup(name string) (*Command, bool) {
	c, ok := table()[strings.ToUpper(name)]
	return c, ok
}

// Names returns every top-level command name; the table is generated, so
// the order is the generator's (sorted).
func Names() []string { return names }

// Arg is one argument of a command line as a checker sees it: its text when
// known statically.
type Arg struct {
	Text  string
	Known bool
}

// Resolve finds the command for argv (argv[0] is the command name; for a
// container such as OBJECT or XINFO, argv[1] picks the subcommand). It
// returns nil when the name is unknown or, for a container, when the
// subcommand is not known statically.
func Resolve(argv []Arg) *Command {
	if len(argv) == 0 || !argv[0].Known {
		return nil
	}
	c, ok := Lookup(argv[0].Text)
	if !ok {
		return nil
	}
	if len(c.Subcommands) == 0 {
		return c
	}
	if len(argv) < 2 || !argv[1].Known {
		return nil
	}
	return c.Subcommands[strings.ToUpper(argv[1].Text)]
}

// KeyRef is the position of one key in argv and how the command uses it.
type KeyRef struct {
	Index int
	Flags KeyFlag
}

// Keys returns the positions of c's keys in argv, following Redis's key
// specs. complete is false when some keys could not be located: a keyword
// or a key count that is not known statically, a spec Redis resolves with
// code (SORT ... STORE, MIGRATE), or argv that Redis would reject.
func (c *Command) Keys(argv []Arg) (keys []KeyRef, complete bool) {
	complete = true
	argc := len(argv)
	for _, spec := range c.KeySpecs {
		if spec.Flags&KeyNotKey != 0 {
			continue
		}
		if spec.Flags&KeyIncomplete != 0 {
			complete = false
		}
		first := 0
		switch spec.Begin {
		case BeginIndex:
			first = spec.Index
		case BeginKeyword:
			found, ok := findKeyword(argv, spec)
			if !ok {
				complete = false
				continue
			}
			if found < 0 {
				continue // keyword absent: this spec has no keys here
			}
			first = found + 1
		default:
			complete = false
			continue
		}
		var last, step int
		switch spec.Find {
		case FindRange:
			switch {
			case spec.LastKey >= 0:
				last = first + spec.LastKey
			case spec.Limit == 0:
				last = argc + spec.LastKey
			default:
				last = first + ((argc-first)/spec.Limit + spec.LastKey)
			}
			step = spec.KeyStep
		case FindKeyNum:
			idx := first + spec.KeyNumIdx
			if idx >= argc || !argv[idx].Known {
				complete = false
				continue
			}
			n, err := strconv.Atoi(argv[idx].Text)
			if err != nil || n < 0 {
				complete = false
				continue
			}
			first += spec.FirstKey
			step = spec.KeyStep
			last = first + (n-1)*step
			if n == 0 {
				continue
			}
		default:
			complete = false
			continue
		}
		if step <= 0 || first >= argc || last >= argc || last < first {
			complete = false
			continue
		}
		for i := first; i <= last; i += step {
			keys = append(keys, KeyRef{Index: i, Flags: spec.Flags})
		}
	}
	return keys, complete
}

// findKeyword returns the index of spec's keyword in argv, -1 when it is
// absent, and ok false when an unknown argument could be the keyword.
func findKeyword(argv []Arg, spec KeySpec) (int, bool) {
	argc := len(argv)
	match := func(i int) (hit, unknown bool) {
		if !argv[i].Known {
			return false, true
		}
		return strings.EqualFold(argv[i].Text, spec.Keyword), false
	}
	sawUnknown := false
	if spec.StartFrom > 0 {
		// Like Redis, never the last argument: a key must follow the keyword.
		for i := spec.StartFrom; i < argc-1; i++ {
			hit, unk := match(i)
			if hit && !sawUnknown {
				return i, true
			}
			sawUnknown = sawUnknown || unk
		}
	} else {
		for i := argc + spec.StartFrom; i >= 1; i-- {
			hit, unk := match(i)
			if hit && !sawUnknown {
				return i, true
			}
			sawUnknown = sawUnknown || unk
		}
	}
	if sawUnknown {
		return -1, false
	}
	return -1, true
}
