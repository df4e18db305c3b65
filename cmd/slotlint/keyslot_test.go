package main

import (
	"bytes"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

// TestKeyslotMatchesRedis runs the built binary on 10,000 keys given as
// arguments and compares every line with the cluster's CLUSTER KEYSLOT.
func TestKeyslotMatchesRedis(t *testing.T) {
	seed := rand.Uint64()
	keys := redistest.RandomKeys(rand.New(rand.NewPCG(seed, 2)), 10000, true)
	want := redistest.KeySlots(t, keys)

	bin := sharedBinary(t)
	cmd := exec.Command(bin, append([]string{"keyslot"}, keys...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("slotlint keyslot: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(keys) {
		t.Fatalf("got %d lines for %d keys (seed %d)", len(lines), len(keys), seed)
	}
	for i, line := range lines {
		slotText, key, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("line %d has no tab: %q", i+1, line)
		}
		if key != printable(keys[i]) {
			t.Fatalf("line %d names key %q, want %q (seed %d)", i+1, key, printable(keys[i]), seed)
		}
		if s, err := strconv.ParseInt(slotText, 10, 64); err != nil || s != want[i] {
			t.Fatalf("line %d: slot %q for %q, Redis says %d (seed %d)", i+1, slotText, keys[i], want[i], seed)
		}
	}
}

func TestKeyslotModes(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string
	}{
		{name: "tag column", args: []string{"-tag", "{user:1}:a", "plain", "foo{}{bar}"}, code: 0,
			stdout: slotLine("{user:1}:a", "user:1") + slotLine("plain", "") + slotLine("foo{}{bar}", "")},
		{name: "stdin keys in order", args: []string{"a", "-", "z"}, stdin: "b\r\nc\n", code: 0,
			stdout: slotLine("a") + slotLine("b") + slotLine("c") + slotLine("z")},
		{name: "quoted control characters", args: []string{"x\ty"}, code: 0, stdout: slotLine("x\ty")},
		{name: "bad flag", args: []string{"-nope", "k"}, code: 2, stderr: "usage: slotlint keyslot"},
		{name: "no keys", args: nil, code: 2, stderr: "usage: slotlint keyslot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"keyslot"}, tt.args...), strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			if stdout.String() != tt.stdout {
				t.Errorf("stdout = %q, want %q", stdout.String(), tt.stdout)
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr.String(), tt.stderr)
			}
		})
	}
}

// slotLine formats the expected line from the slot package, whose agreement
// with Redis TestKeyslotMatchesRedis and the slot tests establish.
func slotLine(key string, tag ...string) string {
	line := strconv.Itoa(slot.Slot(key)) + "\t" + printable(key)
	for _, t := range tag {
		line += "\t" + t
	}
	return line + "\n"
}
