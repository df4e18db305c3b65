package redistest

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/redis/go-redis/v9"
)

// RandomKeys returns n keys that exercise Redis's slot rule: plain ASCII,
// braces at every position (empty, nested, unclosed, several tags), UTF-8,
// binary bytes and the empty key. With forArgv the keys can travel as
// command line arguments: no NUL bytes, and no key "-" (which means standard
// input to the CLI).
func RandomKeys(r *rand.Rand, n int, forArgv bool) []string {
	alphabet := []byte("ab:{}{}_-9")
	keys := []string{"", "{", "}", "{}", "}{", "{{}}", "foo{}{bar}", "foo{{bar}}zap", "{a}{b}", "ключ{тег}"}
	for len(keys) < n {
		var b []byte
		switch len(keys) % 4 {
		case 0: // ASCII with braces, short, so brace positions repeat often
			for range r.IntN(12) {
				b = append(b, alphabet[r.IntN(len(alphabet))])
			}
		case 1: // binary bytes
			for range r.IntN(24) {
				b = append(b, byte(r.IntN(256)))
			}
		case 2: // UTF-8 text with an optional tag
			words := []string{"ключ", "用户", "ü", "{", "}", "é:", "🔑", "x"}
			for range 1 + r.IntN(6) {
				b = append(b, words[r.IntN(len(words))]...)
			}
		default: // realistic key families
			fam := []string{"user:", "{user:", "order:{", "cart:", "{}"}
			b = append(b, fam[r.IntN(len(fam))]...)
			b = append(b, []byte(randDigits(r))...)
			if r.IntN(2) == 0 {
				b = append(b, '}')
			}
			b = append(b, ":profile"[:r.IntN(9)]...)
		}
		if forArgv {
			for i, c := range b {
				if c == 0 {
					b[i] = 1
				}
			}
			if string(b) == "-" {
				b = append(b, '-')
			}
		}
		keys = append(keys, string(b))
	}
	return keys[:n]
}

func randDigits(r *rand.Rand) string {
	d := make([]byte, 1+r.IntN(8))
	for i := range d {
		d[i] = byte('0' + r.IntN(10))
	}
	return string(d)
}

// KeySlots asks Redis for CLUSTER KEYSLOT of every key, pipelined, on one
// cluster node.
func KeySlots(t testing.TB, keys []string) []int64 {
	t.Helper()
	c := ClusterNode(t)
	ctx := context.Background()
	cmds := make([]*redis.IntCmd, len(keys))
	_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, k := range keys {
			cmds[i] = p.ClusterKeySlot(ctx, k)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("CLUSTER KEYSLOT: %v", err)
	}
	out := make([]int64, len(keys))
	for i, c := range cmds {
		out[i] = c.Val()
	}
	return out
}
