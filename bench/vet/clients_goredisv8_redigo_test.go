package vet

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	// Real modules on go-redis v8 and redigo; importing them pins them.
	_ "github.com/alexedwards/scs/redisstore"
	_ "github.com/go-redis/redis/v8"
	_ "github.com/go-redis/redis_rate/v9"
	_ "github.com/gomodule/redigo/redis"
)

// The clients' own modules: their tests and examples (packages outside the
// client, such as redis_test) are application code to slotlint. What it
// reports there is listed in testdata/*.findings, each reviewed.
var clientModuleFindings = []struct{ module, golden string }{
	{"github.com/go-redis/redis/v8", "goredisv8.findings"},
	{"github.com/gomodule/redigo", "redigo.findings"},
}

// TestClientModulesFindings: slotlint reports exactly the reviewed
// findings on go-redis v8's and redigo's own modules.
func TestClientModulesFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("vets whole modules")
	}
	bin := slotlintBinary(t)
	for _, m := range clientModuleFindings {
		t.Run(filepath.Base(m.golden), func(t *testing.T) {
			got := findings(t, moduleDir(t, m.module), t.TempDir(), bin)
			b, err := os.ReadFile(filepath.Join("testdata", m.golden))
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Split(strings.TrimSpace(string(b)), "\n")
			if !slices.Equal(got, want) {
				t.Errorf("findings on %s differ from testdata/%s:\ngot:\n%s", m.module, m.golden, strings.Join(got, "\n"))
			}
		})
	}
}

// consumerModules use go-redis v8 or redigo with single-key commands and
// scripts only, so nothing is reported; a probe file added to the package,
// with one cross-slot command and one unsafe transaction, shows its code is
// read.
var consumerModules = []struct {
	module, pkgDir, probe string
	want                  []string
}{
	{"github.com/go-redis/redis_rate/v9", ".", goRedisV8Probe, []string{
		`MGET keys "a" (slot 15495) and "b" (slot 3300) are in different slots`,
		`TxPipelined transaction keys "x:" + id and "y:" + id share no hash tag`,
	}},
	{"github.com/alexedwards/scs/redisstore", ".", redigoProbe, []string{
		`MGET keys "a" (slot 15495) and "b" (slot 3300) are in different slots`,
		`MULTI transaction keys "x:" + id and "y:" + id share no hash tag`,
	}},
}

const goRedisV8Probe = `package PKG

import (
	"context"

	"github.com/go-redis/redis/v8"
)

func slotlintProbe(ctx context.Context, c *redis.Client, id string) {
	c.MGet(ctx, "a", "b")
	c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "x:"+id)
		p.Incr(ctx, "y:"+id)
		return nil
	})
}
`

const redigoProbe = `package PKG

import "github.com/gomodule/redigo/redis"

func slotlintProbe(c redis.Conn, id string) {
	c.Do("MGET", "a", "b")
	c.Send("MULTI")
	c.Send("INCR", "x:"+id)
	c.Send("INCR", "y:"+id)
	c.Do("EXEC")
}
`

// TestConsumerModules runs slotlint over modules built on go-redis v8 and
// redigo: silent on their code, and reporting the probe's two findings.
func TestConsumerModules(t *testing.T) {
	if testing.Short() {
		t.Skip("vets whole modules")
	}
	bin := slotlintBinary(t)
	for _, m := range consumerModules {
		t.Run(strings.TrimPrefix(m.module, "github.com/"), func(t *testing.T) {
			dir := moduleDir(t, m.module)
			cache := t.TempDir()
			if got := findings(t, dir, cache, bin); len(got) > 0 {
				t.Fatalf("findings in %s:\n%s", m.module, strings.Join(got, "\n"))
			}
			pkg := packageName(t, filepath.Join(dir, m.pkgDir))
			probe := filepath.Join(dir, m.pkgDir, "zz_slotlint_probe.go")
			if err := os.WriteFile(probe, []byte(strings.ReplaceAll(m.probe, "PKG", pkg)), 0o644); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(probe)
			out := strings.Join(findings(t, dir, cache, bin), "\n")
			for _, want := range m.want {
				if !strings.Contains(out, want) {
					t.Errorf("the probe's finding %q is missing from:\n%s", want, out)
				}
			}
		})
	}
}

// packageName is the name of the Go package in dir.
func packageName(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.Name}}", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list in %s: %v", dir, err)
	}
	return strings.TrimSpace(string(out))
}

// findings returns what go vet -vettool=slotlint reports over ./... in dir,
// sorted, lines about the build aside.
// ruleIDInFinding matches the rule ID after "file:line:col: ".
var ruleIDInFinding = regexp.MustCompile(`^(.+?:\d+:\d+: )(?:SL|LUA)\d{3,4} `)

func findings(t *testing.T, dir, gocache, bin string) []string {
	t.Helper()
	cmd := exec.Command("go", "vet", "-vettool="+bin, "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOCACHE="+gocache)
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("go vet: %v", err)
	}
	var keep []string
	for _, l := range strings.Split(string(out), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "go: ") {
			// The rule ID that starts each message is checked by the
			// command's own tests; the findings here are compared as text.
			keep = append(keep, ruleIDInFinding.ReplaceAllString(l, "$1"))
		}
	}
	slices.Sort(keep)
	return keep
}
