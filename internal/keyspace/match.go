package keyspace

import (
	"cmp"
	"slices"
	"strings"

	"github.com/slotlint/slotlint/slot"
)

// Pattern is one shape of a key family as the code builds it: the family's
// name and a symbolic key of literal text and holes. A family built in
// several ways (with and without a tag) has several patterns of one name.
type Pattern struct {
	Family string
	Key    slot.Key
}

// Matcher assigns a sampled key to the family whose shape it has.
//
// A key matches a pattern when the pattern's literal parts occur in the key
// in order, anchored at both ends, and each hole stands for non-empty text:
// "order:{" + id + "}:lock" matches "order:{42}:lock" but not
// "order:{}:lock". A hole may hold any bytes, braces included, as a Go
// string may.
//
// When several patterns match, the most specific wins: the one with the
// most literal bytes, then the one with the fewest holes, then the family
// whose name sorts first. So "user:{" + id + "}" beats "user:" + id for the
// key "user:{42}", and the choice never depends on the order of the input.
type Matcher struct {
	patterns []compiled
}

type compiled struct {
	family  string
	lits    []string // literal runs; lits[i] comes before hole i
	litLen  int      // total literal bytes
	holes   int
	literal bool // no holes: the key must equal lits[0]
}

// NewMatcher compiles patterns. Patterns with equal family and shape are
// kept once.
func NewMatcher(patterns []Pattern) *Matcher {
	m := &Matcher{}
	seen := map[string]bool{}
	for _, p := range patterns {
		c := compile(p)
		id := c.family + "\x00" + strings.Join(c.lits, "\x00")
		if seen[id] {
			continue
		}
		seen[id] = true
		m.patterns = append(m.patterns, c)
	}
	slices.SortStableFunc(m.patterns, func(a, b compiled) int {
		if c := cmp.Compare(b.litLen, a.litLen); c != 0 {
			return c
		}
		if c := cmp.Compare(a.holes, b.holes); c != 0 {
			return c
		}
		return cmp.Compare(a.family, b.family)
	})
	return m
}

// compile turns a key into its literal runs: n holes give n+1 runs, some
// possibly empty ("" + id + ":x" has runs "", ":x").
func compile(p Pattern) compiled {
	c := compiled{family: p.Family, lits: []string{""}}
	for _, part := range p.Key.Parts() {
		if part.Hole != nil {
			c.holes++
			c.lits = append(c.lits, "")
			continue
		}
		c.lits[len(c.lits)-1] += part.Lit
		c.litLen += len(part.Lit)
	}
	c.literal = c.holes == 0
	return c
}

// Match returns the family of key, or false when no pattern matches.
func (m *Matcher) Match(key string) (string, bool) {
	// Patterns are sorted by specificity, so the first match is the answer.
	for i := range m.patterns {
		if m.patterns[i].matches(key) {
			return m.patterns[i].family, true
		}
	}
	return "", false
}

// matches reports whether key has the pattern's shape. The first run must
// be a prefix and the last a suffix; the middle runs are placed leftmost in
// order, each after at least one byte for the hole before it. Leftmost
// placement is enough: moving a run right never helps a later run fit.
func (c *compiled) matches(key string) bool {
	if c.literal {
		return key == c.lits[0]
	}
	first, last := c.lits[0], c.lits[len(c.lits)-1]
	if len(key) < c.litLen+c.holes || !strings.HasPrefix(key, first) || !strings.HasSuffix(key, last) {
		return false
	}
	rest := key[len(first) : len(key)-len(last)]
	for _, lit := range c.lits[1 : len(c.lits)-1] {
		// The hole before lit takes at least one byte.
		if len(rest) < 1 {
			return false
		}
		i := strings.Index(rest[1:], lit)
		if i < 0 {
			return false
		}
		rest = rest[1+i+len(lit):]
	}
	// The last hole takes what is left, at least one byte.
	return len(rest) >= 1
}
