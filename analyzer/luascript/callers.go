package luascript

import (
	"go/token"

	"github.com/slotlint/slotlint/analyzer/internal/callers"
	"github.com/slotlint/slotlint/analyzer/internal/keyexpr"
	"github.com/slotlint/slotlint/slot"
)

// callerIndex indexes the package's functions and their calls, on first
// use: only packages with a script key built from a helper's parameters
// pay for it.

func (c *checker) callerIndex() *callers.Index {
	if c.callers == nil {
		c.callers = callers.New(c.pass, c.x)
	}
	return c.callers
}

// callerBinding is a finding's key and its anchor judged at one call of
// the helper whose parameters they are built from.
type callerBinding struct {
	bound callers.Bound
	rel   slot.Relation
}

// judgeAtCallers judges a script key and the KEYS entry it is compared
// with, both built from parameters of the function that runs the script,
// at every call of that function: a helper runs the script for keys its
// callers build. It returns the first call at which the two may be in
// different slots, and whether every caller was in sight (an unexported
// function, only ever called, with at least one call). ok is false when
// the key and anchor do not depend on the helper's parameters.
func (c *checker) judgeAtCallers(at token.Pos, key, anchor slot.Key) (bad *callerBinding, ok bool) {
	ok = c.callerIndex().Each(at, []slot.Key{key, anchor}, func(b callers.Bound) bool {
		if b.Unbound {
			bad = &callerBinding{bound: b}
			return false
		}
		if rel := slot.Relate(b.Subst(key), b.Subst(anchor), c.cfg.Slot); rel.Kind != slot.SameSlot {
			bad = &callerBinding{bound: b, rel: rel}
			return false
		}
		return true
	})
	return bad, ok
}

// judgeFurther judges a script key that does not provably share its
// anchor's slot with what the call site alone shows: for each value a
// local anchor variable may hold, and, for keys built from the parameters
// of a helper that runs the script, with what each of its callers passes.
// quiet is true when every one shares the slot; otherwise at names the
// caller that does not, if any.
func (c *checker) judgeFurther(st *site, key slot.Key, anchor keyexpr.Elem) (at string, quiet bool) {
	pairs := [][2]slot.Key{{key, anchor.Key}}
	if h, ok := anchor.Key.SoleHole(); ok {
		if vals, ok := c.x.Values(anchor.Expr); ok {
			id := h.ID
			pairs = pairs[:0]
			for _, v := range vals {
				vk := c.x.Key(v)
				bind := func(h slot.Hole) (slot.Key, bool) { return vk, h.ID == id }
				pairs = append(pairs, [2]slot.Key{key.Substitute(bind), vk})
			}
		}
	}
	for _, p := range pairs {
		if slot.Relate(p[0], p[1], c.cfg.Slot).Kind == slot.SameSlot {
			continue
		}
		// Keys built from the parameters of a helper that runs the script
		// are judged with what each of its callers passes.
		bad, ok := c.judgeAtCallers(st.call.Node.Pos(), p[0], p[1])
		if !ok {
			return "", false
		}
		if bad != nil {
			return "; " + bad.bound.Describe(c.pass.Fset, p[1]), false
		}
	}
	return "", true
}
