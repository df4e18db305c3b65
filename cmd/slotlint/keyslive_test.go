package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
)

// liveMap is the part of slotlint keys -json that live mode fills.
type liveMap struct {
	Families []struct {
		Name string `json:"name"`
		Live *struct {
			Seen      int     `json:"seen"`
			Estimated int64   `json:"estimated"`
			TTLShare  float64 `json:"ttlShare"`
			Hot       *struct {
				Scope string `json:"scope"`
				Slot  int    `json:"slot"`
			} `json:"hot"`
		} `json:"live"`
	} `json:"families"`
	Live *struct {
		Cluster   bool `json:"cluster"`
		Sampled   int  `json:"sampled"`
		Unmatched []struct {
			Prefix    string `json:"prefix"`
			Estimated int64  `json:"estimated"`
		} `json:"unmatched"`
		Errors []struct {
			Addr  string `json:"addr"`
			Error string `json:"error"`
		} `json:"errors"`
		Partial        bool     `json:"partial"`
		PartialReasons []string `json:"partialReasons"`
	} `json:"live"`
}

func decodeLive(t *testing.T, stdout string) *liveMap {
	t.Helper()
	var m liveMap
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("slotlint keys -json: %v\n%s", err, stdout)
	}
	if m.Live == nil {
		t.Fatalf("slotlint keys -json -redis: no live section\n%s", stdout)
	}
	return &m
}

// fillShop writes keys of examples/shop's families on a cluster: the
// constant-tag family {active}:<id> holds most of them; legacy:<n> is of
// no family in the code.
func fillShop(t *testing.T, c *redis.ClusterClient, active int) map[string]int {
	t.Helper()
	ctx := context.Background()
	want := map[string]int{"{active}:*": active, "cart:{*}:items": 1500, "order:{*}": 1000, "lock:{*}": 500, "legacy:*": 500}
	writes := map[string]func(p redis.Pipeliner, i int){
		"{active}:*":     func(p redis.Pipeliner, i int) { p.Set(ctx, fmt.Sprintf("{active}:%d", i), "1", time.Hour) },
		"cart:{*}:items": func(p redis.Pipeliner, i int) { p.HSet(ctx, fmt.Sprintf("cart:{u%d}:items", i), "sku", 1) },
		"order:{*}":      func(p redis.Pipeliner, i int) { p.HSet(ctx, fmt.Sprintf("order:{%d}", i), "total", 1) },
		"lock:{*}":       func(p redis.Pipeliner, i int) { p.Set(ctx, fmt.Sprintf("lock:{job%d}", i), "owner", 0) },
		"legacy:*":       func(p redis.Pipeliner, i int) { p.Set(ctx, fmt.Sprintf("legacy:%d", i), "1", 0) },
	}
	for name, n := range want {
		for start := 0; start < n; start += 2000 {
			_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
				for i := start; i < min(n, start+2000); i++ {
					writes[name](p, i)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("fill %s: %v", name, err)
			}
		}
	}
	return want
}

// TestKeysLive: slotlint keys -redis on examples/shop against a cluster
// holding its families: exact counts when the budget covers the keyspace,
// the constant-tag family flagged, unmatched keys listed; an interrupt
// writes a partial map; a node that does not answer is named with its
// slots and the exit status is 1.
func TestKeysLive(t *testing.T) {
	bin := sharedBinary(t)
	cl := redistest.StartCluster(t, "--cluster-require-full-coverage", "no")
	want := fillShop(t, cl.Client(t, nil), 40000)
	seeds := strings.Join(cl.Addrs(), ",")

	t.Run("all", func(t *testing.T) {
		page := filepath.Join(t.TempDir(), "keys.html")
		code, stdout, stderr := runIn(t, exampleDir, bin, "keys", "-json", "-html", page, "-redis", seeds, "-budget-keys", "100000", "./...")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		if html, err := os.ReadFile(page); err != nil || !bytes.Contains(html, []byte("<h2>Live sampling</h2>")) || !bytes.Contains(html, []byte(", HOT</td>")) {
			t.Errorf("the page has no live sampling (%v)", err)
		}
		m := decodeLive(t, stdout)
		if !m.Live.Cluster || m.Live.Partial || m.Live.Sampled != 43500 {
			t.Errorf("live: %+v", m.Live)
		}
		seen := map[string]bool{}
		for _, f := range m.Families {
			if f.Live == nil {
				t.Errorf("family %s has no live section", f.Name)
				continue
			}
			n, ok := want[f.Name]
			if !ok {
				if f.Live.Seen != 0 {
					t.Errorf("family %s: %d keys seen, none written", f.Name, f.Live.Seen)
				}
				continue
			}
			seen[f.Name] = true
			if f.Live.Seen != n || f.Live.Estimated != int64(n) {
				t.Errorf("family %s: seen %d, estimated %d, want %d", f.Name, f.Live.Seen, f.Live.Estimated, n)
			}
			// CLUSTER KEYSLOT {active} is 15924.
			if hot := f.Name == "{active}:*"; hot != (f.Live.Hot != nil) || hot && (f.Live.Hot.Scope != "slot" || f.Live.Hot.Slot != 15924) {
				t.Errorf("family %s: hot %+v", f.Name, f.Live.Hot)
			}
		}
		if len(seen) != 4 {
			t.Errorf("families found: %v", seen)
		}
		if len(m.Live.Unmatched) != 1 || m.Live.Unmatched[0].Prefix != "legacy:*" || m.Live.Unmatched[0].Estimated != 500 {
			t.Errorf("unmatched: %+v", m.Live.Unmatched)
		}
		// The text form shows the same.
		code, stdout, _ = runIn(t, exampleDir, bin, "keys", "-redis", seeds, "./...")
		if code != 0 || !strings.Contains(stdout, "{active}:<") || !strings.Contains(stdout, "piles onto slot 15924") || !strings.Contains(stdout, "legacy:*") {
			t.Errorf("text: exit %d\n%s", code, stdout)
		}
	})

	t.Run("interrupt", func(t *testing.T) {
		// COUNT 1 makes the scan of 43500 keys take some seconds; the
		// first progress line says it has begun.
		cmd := exec.Command(bin, "keys", "-json", "-redis", seeds, "-count", "1", "-progress", "./...")
		cmd.Dir = exampleDir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var errText bytes.Buffer
		buf := make([]byte, 4096)
		for !strings.Contains(errText.String(), "keys sampled") {
			n, err := stderr.Read(buf)
			errText.Write(buf[:n])
			if err != nil {
				t.Fatalf("no progress line: %v\n%s", err, errText.String())
			}
		}
		cmd.Process.Signal(syscall.SIGINT)
		go func() {
			for {
				n, err := stderr.Read(buf)
				errText.Write(buf[:n])
				if err != nil {
					return
				}
			}
		}()
		if err := cmd.Wait(); err != nil {
			t.Fatalf("after an interrupt: %v\n%s", err, errText.String())
		}
		m := decodeLive(t, stdout.String())
		if !m.Live.Partial || !strings.Contains(strings.Join(m.Live.PartialReasons, ";"), "interrupted") || m.Live.Sampled == 0 || m.Live.Sampled >= 43500 {
			t.Errorf("live after an interrupt: %+v", m.Live)
		}
	})

	t.Run("paused master", func(t *testing.T) {
		cl.Masters[1].Pause(t)
		defer cl.Masters[1].Resume(t)
		code, stdout, stderr := runIn(t, exampleDir, bin, "keys", "-json", "-redis", seeds, "-call-timeout", "300ms", "./...")
		addr := cl.Masters[1].Addr
		if code != 1 || !strings.Contains(stderr, addr+" (slots 5461-10921)") {
			t.Errorf("exit %d, want 1 and an error naming %s and its slots\n%s", code, addr, stderr)
		}
		m := decodeLive(t, stdout)
		if !m.Live.Partial || len(m.Live.Errors) != 1 || m.Live.Errors[0].Addr != addr || m.Live.Sampled == 0 {
			t.Errorf("live with a paused master: %+v", m.Live)
		}
	})

	t.Run("bad flags", func(t *testing.T) {
		for _, args := range [][]string{
			{"-redis", "nohost"}, {"-redis", seeds, "-budget-keys", "0"}, {"-redis", seeds, "-count", "-1"},
			{"-redis", seeds, "-budget-time", "0s"}, {"-redis", seeds, "-hot-share", "2"},
		} {
			code, _, stderr := runHere(t, append(append([]string{"keys"}, args...), "./...")...)
			if code != exitUsage {
				t.Errorf("slotlint keys %v: exit %d, want %d\n%s", args, code, exitUsage, stderr)
			}
		}
	})
}
