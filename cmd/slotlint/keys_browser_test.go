package main

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The page of slotlint keys -html is opened in a real browser, Debian's
// chromium, headless: scripts/test-integrations installs it when missing.

// chromiumFlags start a headless browser that reaches nothing but the
// page: no network services, no first-run UI, no sync, no updates.
var chromiumFlags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--enable-logging=stderr", "--v=0",
}

func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	missingTool(t, "chromium is not installed: the page test needs it (Debian/Ubuntu: apt-get install chromium)")
	return ""
}

// openPage runs the browser on a file with a fresh profile and extra
// flags, and returns its standard output and the page's console lines.
func openPage(t *testing.T, browser, page string, flags ...string) (string, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := append(append(append([]string{}, chromiumFlags...), "--user-data-dir="+t.TempDir()), flags...)
	cmd := exec.CommandContext(ctx, browser, append(args, "file://"+page)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", browser, err, stderr.String())
	}
	var console []string
	for line := range strings.Lines(stderr.String()) {
		if strings.Contains(line, ":CONSOLE") {
			console = append(console, strings.TrimSpace(line))
		}
	}
	return stdout.String(), console
}

var (
	shopPageOnce sync.Once
	shopPageErr  string // why the page could not be written
)

// shopPage writes the example service's page, once per test binary, next
// to the shared binary (TestMain removes both): the browser tests only
// read it, and each run of slotlint keys loads the example from source.
func shopPage(t *testing.T) string {
	t.Helper()
	bin := sharedBinary(t)
	page := filepath.Join(filepath.Dir(bin), "keys-shop.html")
	shopPageOnce.Do(func() {
		r := runCommand(exampleDir, bin, "keys", "-html", page, "./...")
		switch {
		case r.err != nil:
			shopPageErr = "slotlint keys -html: " + r.err.Error()
		case r.code != 0:
			shopPageErr = fmt.Sprintf("slotlint keys -html: exit %d\n%s", r.code, r.stderr)
		}
	})
	if shopPageErr != "" {
		t.Fatal(shopPageErr)
	}
	return page
}

// TestKeysPageInBrowser opens the example service's page: it logs nothing
// to the console, its own check (graph and table agree, no script error)
// passes, and it shows every family of the example. The console check is
// shown to catch an error on a page that throws one.
func TestKeysPageInBrowser(t *testing.T) {
	integration(t)
	browser := chromium(t)
	page := shopPage(t)
	dom, console := openPage(t, browser, page, "--dump-dom")
	if len(console) > 0 {
		t.Errorf("the page wrote to the console:\n%s", strings.Join(console, "\n"))
	}
	if !regexp.MustCompile(`id="selfcheck"[^>]*data-status="ok"[^>]*>ok families=24 rows=24 `).MatchString(dom) {
		m := regexp.MustCompile(`<div id="selfcheck".*?</div>`).FindString(dom)
		t.Errorf("the page's self-check did not pass: %s", m)
	}
	for _, f := range []string{"cart:{<userID>}:items", "order:<id>:status", "{active}:<day>", "jobs:{<q.name>}:running", "scheduler:leader"} {
		if !strings.Contains(dom, ">"+html.EscapeString(f)+"</text>") {
			t.Errorf("the graph does not show %s", f)
		}
	}

	bad := filepath.Join(t.TempDir(), "bad.html")
	if err := os.WriteFile(bad, []byte(`<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, console := openPage(t, browser, bad, "--dump-dom"); len(console) == 0 {
		t.Error("a page that throws wrote no console line: the console check sees nothing")
	}
}

// Colours of the screenshot check: the verdicts' edge colours.
var (
	crossSlotRGB = [3]uint8{0xc6, 0x28, 0x28}
	sameSlotRGB  = [3]uint8{0x2e, 0x7d, 0x32}
)

// TestKeysPageScreenshot takes a screenshot of the example service's page:
// it is not blank, and both the cross-slot and the same-slot edges of the
// example are drawn in their colours. With SLOTLINT_KEYS_SCREENSHOT set,
// the picture is also written there (docs/keys-shop.png).
func TestKeysPageScreenshot(t *testing.T) {
	integration(t)
	browser := chromium(t)
	page := shopPage(t)
	shot := filepath.Join(t.TempDir(), "shot.png")
	openPage(t, browser, page, "--window-size=1400,1000", "--hide-scrollbars", "--screenshot="+shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	colours := map[[3]uint8]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8)}]++
		}
	}
	if len(colours) < 50 {
		t.Errorf("the screenshot has %d colours: blank or nearly", len(colours))
	}
	// A legend swatch is at most 14x10 pixels of its colour; the edges
	// add the rest (antialiasing leaves a line's middle in the exact
	// colour). The example draws about 1100 cross-slot and 250 same-slot
	// edge pixels at this size.
	for name, want := range map[string]struct {
		c   [3]uint8
		min int
	}{"cross-slot": {crossSlotRGB, 600}, "same-slot": {sameSlotRGB, 200}} {
		if n := near(colours, want.c); n < want.min {
			t.Errorf("%d pixels of the %s colour %v, want %d or more: the graph's edges are not drawn", n, name, want.c, want.min)
		}
	}
	if out := os.Getenv("SLOTLINT_KEYS_SCREENSHOT"); out != "" {
		data, err := os.ReadFile(shot)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// near counts the pixels within 8 of colour c in every channel.
func near(colours map[[3]uint8]int, c [3]uint8) int {
	n := 0
	for k, count := range colours {
		if diff(k[0], c[0]) <= 8 && diff(k[1], c[1]) <= 8 && diff(k[2], c[2]) <= 8 {
			n += count
		}
	}
	return n
}

func diff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
