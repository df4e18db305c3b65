package stdlib

import "testing"

func TestIsStandard(t *testing.T) {
	for _, c := range []struct {
		path, module string
		want         bool
	}{
		{"fmt", "", true},
		{"net/http", "", true},
		{"internal/abi", "", true},
		{"vendor/golang.org/x/net/http2/hpack", "", true},
		{"github.com/redis/go-redis/v9", "github.com/redis/go-redis/v9", false},
		{"example.com/app", "", false},
		// A module whose path has no dot is still not the standard library.
		{"app/internal/x", "app", false},
		{"main", "app", false},
	} {
		if got := IsStandard(c.path, c.module); got != c.want {
			t.Errorf("IsStandard(%q, module %q) = %v, want %v", c.path, c.module, got, c.want)
		}
	}
}
