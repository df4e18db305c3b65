package lockcheck

import (
	"go/ast"

	"strings"
	"unicode"

	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/slot"
)

// release reports SL1302: a lock key (a key some code of the package sets
// with NX and lets expire) deleted by DEL or UNLINK outside a WATCH transaction or a
// script. Without an owner check the DEL removes whoever holds the lock
// now; with GET, compare, DEL the lock can change hands between the GET
// and the DEL.
func (c *checker) release() {
	if !c.r.Enabled(rules.UncheckedRelease) {
		return
	}
	// A key set with NX is a lock when it expires: a TTL in the SET, or an
	// EXPIRE of its family. SETNX without either is create-if-absent of a
	// record, whose DEL is an ordinary delete.
	var locks, noTTL, expiring []slot.Key
	for _, f := range c.fns {
		for _, e := range f.all {
			switch e.kind {
			case acquireTTL:
				locks = append(locks, e.key)
			case acquireNoTTL:
				noTTL = append(noTTL, e.key)
			case expire:
				expiring = append(expiring, e.key)
			}
		}
	}
	for _, k := range noTTL {
		if isLock(k, expiring) {
			locks = append(locks, k)
		}
	}
	if len(locks) == 0 {
		return
	}
	for _, f := range c.fns {
		for _, d := range f.all {
			if d.kind != del || watched(d.call.Tx) || !isLock(d.key, locks) {
				continue
			}
			if !d.direct() && isLock(d.origin().key, locks) {
				continue // reported at the DEL inside the helper
			}
			if r := c.ownerRead(f, d); r != nil {
				c.r.Report(rules.UncheckedRelease, d.at, nil,
					"lock key %s released by GET, compare, %s: the lock can expire and pass to another client between the GET and the %s, which then deletes their lock; %s",
					d.key, commandOf(d), d.call.Command, releaseAdvice(d.call.Client, "compares the token and deletes in one step"))
				continue
			}
			c.r.Report(rules.UncheckedRelease, d.at, nil,
				"lock key %s released by %s without an owner check: if the lock expired and another client took it, this deletes their lock; %s",
				d.key, commandOf(d), releaseAdvice(d.call.Client, "deletes only while the value is still this owner's token"))
		}
	}
}

// isLock reports whether k is a key set with NX somewhere in the package:
// the same key, or a key of the same family (same literal text, values in
// the same places) whose text names something, so that "*:*" built from
// unrelated values does not count.
func isLock(k slot.Key, locks []slot.Key) bool {
	shape := k.Shape()
	family := strings.IndexFunc(shape, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
	for _, l := range locks {
		if l.Equal(k) || (family && l.Shape() == shape) {
			return true
		}
	}
	return false
}

// ownerRead returns the GET of the same key whose value decides, before
// it, whether the DEL runs.
func (c *checker) ownerRead(f *fn, d *event) *event {
	for _, r := range f.all {
		if r.kind != read || r.field != nil || !(r.direct() || r.returned) || !r.key.Equal(d.key) {
			continue
		}
		if !f.before(r.at, d.at) {
			continue
		}
		t := newTaint(f, r.at)
		if f.decidedBy(r.at, d.at, func(e ast.Expr) bool { return t.mentions(e) }) {
			return r
		}
	}
	return nil
}
