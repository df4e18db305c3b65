package groundtruth

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/gomodule/redigo/redis"
)

// labels reads each case's label from the first line of its comment.
func labels(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "cases.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && Cases[fd.Name.Name] != nil && fd.Doc != nil {
			out[fd.Name.Name] = strings.Fields(fd.Doc.Text())[0]
		}
	}
	for name := range Cases {
		if out[name] == "" {
			t.Fatalf("case %s has no label", name)
		}
	}
	return out
}

// redirect reports whether err only says where the keys live: MOVED or
// ASK, or EXECABORT after a queued command was redirected. A cluster-aware
// caller follows it; it is not a property of the command's keys.
func redirect(err error) bool {
	s := err.Error()
	return strings.HasPrefix(s, "MOVED ") || strings.HasPrefix(s, "ASK ") ||
		strings.HasPrefix(s, "EXECABORT") || err == redis.ErrNil
}

// TestClusterMatchesLabels runs every case on every master of the harness
// cluster (one of them owns the first key's slot, so a command whose keys
// span slots meets CROSSSLOT there), for 200 inputs. A case labelled with
// a slot rule must fail with CROSSSLOT for some input; a clean case must
// never, and may fail only with a redirect.
func TestClusterMatchesLabels(t *testing.T) {
	addrs := os.Getenv("SLOTLINT_REDIS_CLUSTER_ADDRS")
	if addrs == "" {
		// As internal/redistest: under CI a missing cluster fails.
		msg := "SLOTLINT_REDIS_CLUSTER_ADDRS is not set: run under scripts/redis-test-env"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	var conns []redis.Conn
	for _, addr := range strings.Split(addrs, ",") {
		c, err := redis.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	prefix := os.Getenv("SLOTLINT_GT_PREFIX")
	label := labels(t)
	var names []string
	for name := range Cases {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fn, want := Cases[name], label[name]
		t.Run(name, func(t *testing.T) {
			cross := 0
			for i := range 200 {
				id := fmt.Sprintf("%s%d", prefix, i)
				for _, c := range conns {
					err := fn(c, id)
					c.Do("UNWATCH") // a failed case may leave its WATCH
					if err == nil {
						continue
					}
					if strings.Contains(err.Error(), "CROSSSLOT") {
						cross++
						if want == "clean" {
							t.Fatalf("clean case failed with CROSSSLOT for id %q: %v", id, err)
						}
					} else if want == "clean" && !redirect(err) {
						t.Fatalf("clean case failed for id %q: %v", id, err)
					}
				}
			}
			if want != "clean" {
				if cross == 0 {
					t.Fatalf("labelled %s, but no input failed with CROSSSLOT", want)
				}
				t.Logf("%s %s: CROSSSLOT for %d of %d runs", name, want, cross, 200*len(conns))
			}
		})
	}
}
