package luacheck

import (
	"sync"
	"testing"
)

func TestCache(t *testing.T) {
	var c Cache
	src := []byte("return redis.call('GET', KEYS[1] .. ':x')")
	var wg sync.WaitGroup
	results := make([]*Result, 8)
	for i := range results {
		wg.Go(func() { results[i] = c.Analyze(src, Options{Filename: "a.lua"}) })
	}
	wg.Wait()
	for _, r := range results[1:] {
		if r != results[0] {
			t.Fatal("same script and options analysed twice")
		}
	}
	if len(results[0].Findings) != 1 || results[0].Findings[0].Rule != RuleDerivedKey {
		t.Errorf("findings %v", results[0].Findings)
	}
	other := c.Analyze(src, Options{Filename: "a.lua", NumKeys: 0, KeysKnown: true})
	if other == results[0] || len(other.Findings) != 2 {
		t.Errorf("different options must be analysed apart: %v", other.Findings)
	}
	c.Analyze([]byte("return 1"), Options{Filename: "a.lua"})
	if c.Len() != 3 {
		t.Errorf("Len %d, want 3", c.Len())
	}
}
