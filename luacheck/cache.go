package luacheck

import (
	"crypto/sha256"
	"sync"
)

// Cache keeps Analyze results by script content and options, so a caller
// that meets the same script many times (a Go package calling one Lua
// script from several sites, or several packages embedding it) parses and
// analyses it once. It is safe for concurrent use. Results are shared:
// callers must not modify them.
type Cache struct {
	mu sync.Mutex
	m  map[cacheKey]*cacheEntry
}

type cacheKey struct {
	hash [32]byte
	opts Options
}

type cacheEntry struct {
	once sync.Once
	res  *Result
}

// Analyze returns the cached result for src and opts, computing it on
// first use. Concurrent calls for the same script wait for one analysis.
func (c *Cache) Analyze(src []byte, opts Options) *Result {
	k := cacheKey{hash: sha256.Sum256(src), opts: opts}
	c.mu.Lock()
	if c.m == nil {
		c.m = make(map[cacheKey]*cacheEntry)
	}
	e, ok := c.m[k]
	if !ok {
		e = &cacheEntry{}
		c.m[k] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.res = Analyze(src, opts) })
	return e.res
}

// Len is the number of distinct scripts and options analysed.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
