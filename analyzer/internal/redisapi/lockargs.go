package redisapi

import (
	"go/ast"
	"go/constant"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer/internal/astutil"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
)

// Client is the library a call is made with, so rules can write their
// advice in its terms.
type Client uint8

const (
	GoRedisClient Client = iota // go-redis v9, v8 and rueidiscompat
	RedigoClient
	RueidisClient
	ValkeyClient
	RuntimeClient // slotlint's runtime
)

// SetOptions is what a SET-family call (SET, SETNX, SETEX, PSETEX) says
// about its condition and its expiry.
type SetOptions struct {
	// NX: the key is set only if absent (SETNX, SET NX).
	NX bool
	// Guarded: XX, IFEQ and the other compare modes, or GET; not a plain
	// overwrite.
	Guarded bool
	// TTL: the call sets an expiry, or may (a duration that is not a
	// constant zero).
	TTL bool
	// ZeroTTL is the expiry argument when it is given as a constant zero
	// (go-redis SetNX(ctx, k, v, 0)), so a fix can replace it.
	ZeroTTL ast.Expr
	// Options is the literal of the options, written in the call, when the
	// client takes them as one (go-redis SetArgs{Mode: "NX"}): a fix can
	// give the SET an expiry by adding the field named TTLField.
	Options  *ast.CompositeLit
	TTLField string
}

// setModes are SET's option words, by what they make of the command; the
// ones followed by an argument take it.
var setModes = map[string]struct {
	nx, guarded, ttl, takesArg bool
}{
	"NX": {nx: true}, "XX": {guarded: true}, "GET": {guarded: true},
	"IFEQ": {guarded: true, takesArg: true}, "IFNE": {guarded: true, takesArg: true},
	"IFDEQ": {guarded: true, takesArg: true}, "IFDNE": {guarded: true, takesArg: true},
	"EX": {ttl: true, takesArg: true}, "PX": {ttl: true, takesArg: true},
	"EXAT": {ttl: true, takesArg: true}, "PXAT": {ttl: true, takesArg: true},
	"KEEPTTL": {ttl: true},
}

// readCommandLine fills Set, Value and Field of a command sent as a
// command line (Do("SET", key, value, "NX", "PX", ms)); args are the
// arguments after the command name, nil where one is not known.
func (rec *Call) readCommandLine(pass *analysis.Pass, args []ast.Expr) {
	at := func(i int) ast.Expr {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	switch rec.Command {
	case "SET":
		if len(args) < 2 {
			return
		}
		set := &SetOptions{}
		for i := 2; i < len(args); i++ {
			word, ok := astutil.ConstString(pass.TypesInfo, args[i])
			mode, known := setModes[strings.ToUpper(word)]
			if !ok || !known {
				return // an option that cannot be read: leave SET undescribed
			}
			set.NX = set.NX || mode.nx
			set.Guarded = set.Guarded || mode.guarded
			set.TTL = set.TTL || mode.ttl
			if mode.takesArg {
				i++
			}
		}
		rec.Set, rec.Value = set, args[1]
	case "SETNX":
		if len(args) == 2 {
			rec.Set, rec.Value = &SetOptions{NX: true}, args[1]
		}
	case "SETEX", "PSETEX":
		if len(args) == 3 {
			rec.Set, rec.Value = &SetOptions{TTL: true}, args[2]
		}
	case "HGET":
		if len(args) == 2 {
			rec.Field = at(1)
		}
	case "HSET":
		if len(args) == 3 {
			rec.Field, rec.Value = at(1), at(2)
		}
	}
}

// readGoRedisMethod fills Set, Value and Field of a go-redis method call
// of the SET family, HGET or HSET of one field.
func (rec *Call) readGoRedisMethod(pass *analysis.Pass, x *keyexpr.Extractor, name string) {
	args := rec.Node.Args
	switch name {
	case "SetNX":
		if len(args) != 4 {
			return
		}
		set := &SetOptions{NX: true, TTL: true}
		if d, ok := astutil.ConstInt(pass.TypesInfo, args[3]); ok && d <= 0 {
			set.TTL, set.ZeroTTL = false, args[3]
		}
		rec.Set, rec.Value = set, args[2]
	case "Set":
		if len(args) == 4 {
			rec.Set, rec.Value = &SetOptions{}, args[2]
		}
	case "SetEx":
		if len(args) == 4 {
			rec.Set, rec.Value = &SetOptions{TTL: true}, args[2]
		}
	case "SetArgs":
		if len(args) != 4 {
			return
		}
		if set, ok := setArgs(pass, x, args[3]); ok {
			if lit, ok := ast.Unparen(args[3]).(*ast.CompositeLit); ok {
				set.Options, set.TTLField = lit, "TTL"
			}
			rec.Set, rec.Value = set, args[2]
		}
	case "Expire", "PExpire":
		if len(args) == 3 {
			rec.Expiry = args[2]
		}
	case "HGet":
		if len(args) == 3 {
			rec.Field = args[2]
		}
	case "HSet":
		// One field and its value; maps, structs and several pairs are
		// not followed.
		if len(args) == 4 && !rec.Node.Ellipsis.IsValid() && astutil.IsString(pass.TypesInfo.TypeOf(args[2])) {
			rec.Field, rec.Value = args[2], args[3]
		}
	}
}

// setArgs reads a go-redis SetArgs literal.
func setArgs(pass *analysis.Pass, x *keyexpr.Extractor, e ast.Expr) (*SetOptions, bool) {
	lit, ok := x.Composite(e)
	if !ok {
		return nil, false
	}
	set := &SetOptions{}
	if m, ok := keyexpr.Field(lit, "Mode"); ok {
		s, ok := astutil.ConstString(pass.TypesInfo, m)
		if !ok {
			return nil, false
		}
		switch mode := strings.ToUpper(s); mode {
		case "":
		case "NX":
			set.NX = true
		default:
			set.Guarded = true // XX, IFEQ and the other compare-and-set modes
		}
	}
	if g, ok := keyexpr.Field(lit, "Get"); ok && !isConstFalse(pass, g) {
		set.Guarded = true
	}
	if v, ok := keyexpr.Field(lit, "TTL"); ok {
		if d, ok := astutil.ConstInt(pass.TypesInfo, v); !ok || d > 0 {
			set.TTL = true
		}
	}
	if _, ok := keyexpr.Field(lit, "ExpireAt"); ok {
		set.TTL = true
	}
	if v, ok := keyexpr.Field(lit, "KeepTTL"); ok && !isConstFalse(pass, v) {
		set.TTL = true
	}
	return set, true
}

// readBuilder fills Set, Value and Field of a rueidis or valkey-go builder
// chain (B().Set().Key(k).Value(v).Nx().Px(ttl).Build()), from the names
// of its steps.
func (rec *Call) readBuilder(steps []chainStep) {
	arg := func(name string, i, n int) (ast.Expr, int) {
		var found ast.Expr
		count := 0
		for _, st := range steps {
			if st.fn.Name() == name && len(st.call.Args) == n && !st.call.Ellipsis.IsValid() {
				found = st.call.Args[i]
				count++
			}
		}
		return found, count
	}
	switch rec.Command {
	case "SET":
		set := &SetOptions{}
		for _, st := range steps[1:] {
			switch st.fn.Name() {
			case "Key", "Value", "Build":
			case "Nx":
				set.NX = true
			case "Xx", "Get", "Ifeq", "Ifne", "Ifdeq", "Ifdne":
				set.Guarded = true
			case "ExSeconds", "PxMilliseconds", "ExatTimestamp", "PxatMillisecondsTimestamp", "Keepttl", "Ex", "Px", "Exat", "Pxat":
				set.TTL = true
			default:
				return // a step not known here: leave SET undescribed
			}
		}
		if v, n := arg("Value", 0, 1); n == 1 {
			rec.Set, rec.Value = set, v
		}
	case "SETNX":
		if v, n := arg("Value", 0, 1); n == 1 {
			rec.Set, rec.Value = &SetOptions{NX: true}, v
		}
	case "SETEX", "PSETEX":
		if v, n := arg("Value", 0, 1); n == 1 {
			rec.Set, rec.Value = &SetOptions{TTL: true}, v
		}
	case "HGET":
		if f, n := arg("Field", 0, 1); n == 1 {
			rec.Field = f
		}
	case "HSET":
		f, n := arg("FieldValue", 0, 2)
		if n == 1 {
			v, _ := arg("FieldValue", 1, 2)
			rec.Field, rec.Value = f, v
		}
	}
}

func isConstFalse(pass *analysis.Pass, e ast.Expr) bool {
	tv, ok := pass.TypesInfo.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}
