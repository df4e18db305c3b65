package lockcheck

import "github.com/slotlint/slotlint/analyzer/rules"

// counterTTL reports SL1305: a counter whose TTL a separate EXPIRE sets
// only when the increment's reply says the key is new (if n == 1). A
// process that dies, or an EXPIRE that fails, between the two leaves a
// counter that never expires: no later increment is the first again, so
// none sets the TTL. An EXPIRE after every increment is left alone (the
// next call repairs a lost TTL), and so is one that a TTL or PTTL read of
// the key also decides (a repair of its own).
func (c *checker) counterTTL() {
	if !c.r.Enabled(rules.CounterNoTTL) {
		return
	}
	for _, f := range c.fns {
		for _, a := range f.all {
			if a.kind != increment || !(a.direct() || a.returned) {
				continue
			}
			var t *taint
			for _, e := range f.all {
				if e.kind != expire || e.at == a.at || !e.key.Equal(a.key) {
					continue
				}
				if a.call.Tx != nil && a.call.Tx == e.call.Tx {
					continue // MULTI/EXEC: both or neither
				}
				if !f.before(a.at, e.at) {
					continue
				}
				if t == nil {
					t = newTaint(f, a.at)
				}
				if !f.decidedBy(a.at, e.at, t.decides) || repaired(f, e) {
					continue
				}
				c.r.Report(rules.CounterNoTTL, a.at, nil,
					"%s of counter key %s sets no TTL and %s sets one only when its reply says the key is new: if the process dies or the %s fails in between, the counter never expires and keeps counting; %s",
					commandOf(a), a.key, commandOf(e), command(e), counterAdvice(a.call.Client))
				break
			}
		}
	}
}

// repaired reports whether a TTL or PTTL read of the EXPIRE's key comes
// before it and decides whether it runs: the code sets a missing TTL
// again whenever it finds one missing.
func repaired(f *fn, e *event) bool {
	for _, r := range f.all {
		if r.kind != ttlRead || !r.key.Equal(e.key) || !(r.direct() || r.returned) || !f.before(r.at, e.at) {
			continue
		}
		if f.decidedBy(r.at, e.at, newTaint(f, r.at).decides) {
			return true
		}
	}
	return false
}
