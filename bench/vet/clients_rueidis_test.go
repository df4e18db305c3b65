package vet

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	// rueidis and valkey-go ship a lock package each that only uses the
	// client, so slotlint checks it like application code.
	_ "github.com/redis/rueidis/rueidislock"
	_ "github.com/valkey-io/valkey-go/valkeylock"
)

// rueidisTargets are the modules of rueidis and valkey-go, pinned by this
// module's go.mod, with their lock package and its client.
var rueidisTargets = []struct{ module, lockPkg, client string }{
	{"github.com/redis/rueidis", "rueidislock", "github.com/redis/rueidis"},
	{"github.com/valkey-io/valkey-go", "valkeylock", "github.com/valkey-io/valkey-go"},
}

// TestRueidisModules runs slotlint through go vet over each module as its
// own main module: its lock package runs single-key Lua scripts only, so
// nothing is reported. A probe file added to the lock package, with one
// cross-slot command and one unsafe transaction, shows its code is read.
func TestRueidisModules(t *testing.T) {
	if testing.Short() {
		t.Skip("vets whole modules")
	}
	bin := slotlintBinary(t)
	for _, m := range rueidisTargets {
		t.Run(filepath.Base(m.module), func(t *testing.T) {
			dir := moduleDir(t, m.module)
			cache := t.TempDir()
			if out := strings.Join(findings(t, dir, cache, bin), "\n"); out != "" {
				t.Fatalf("findings in %s:\n%s", m.module, out)
			}
			probe := filepath.Join(dir, m.lockPkg, "zz_slotlint_probe.go")
			src := strings.ReplaceAll(probeSrc, "PKG", m.lockPkg)
			src = strings.ReplaceAll(src, "CLIENT", m.client)
			if err := os.WriteFile(probe, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(probe)
			out := strings.Join(findings(t, dir, cache, bin), "\n")
			for _, want := range []string{
				`MGET keys "a" (slot 15495) and "b" (slot 3300) are in different slots`,
				`MULTI/EXEC transaction keys "x:" + id and "y:" + id share no hash tag`,
			} {
				if !strings.Contains(out, want) {
					t.Errorf("the probe's finding %q is missing from:\n%s", want, out)
				}
			}
		})
	}
}

const probeSrc = `package PKG

import (
	"context"

	client "CLIENT"
)

func slotlintProbe(ctx context.Context, c client.Client, id string) {
	c.Do(ctx, c.B().Mget().Key("a", "b").Build())
	c.DoMulti(ctx, c.B().Multi().Build(),
		c.B().Incr().Key("x:"+id).Build(),
		c.B().Incr().Key("y:"+id).Build(),
		c.B().Exec().Build())
}
`
