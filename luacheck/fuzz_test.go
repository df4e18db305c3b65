package luacheck

import (
	"strings"
	"testing"
)

// FuzzCheck: arbitrary bytes never panic or hang, and every finding has a
// rule, a message and a position inside the script.
func FuzzCheck(f *testing.F) {
	for _, c := range loadCases(f) {
		f.Add(c.src, false)
	}
	f.Add([]byte("#!lua name=x\nredis.register_function{function_name='f', callback=function(k, a) return k[1] end}"), true)
	f.Add([]byte("\xEF\xBB\xBF#!lua flags=\n"), false)
	f.Add([]byte(strings.Repeat("(", 300)), false)
	f.Fuzz(func(t *testing.T, src []byte, function bool) {
		// The interpreter's step budget grows with the script's tokens,
		// so the work is bounded by the input's size; a hang would be
		// caught by go test's -timeout, and the time per input is the
		// benchmarks' (BenchmarkDeepInput) to show, not a limit here.
		res := Analyze(src, Options{Function: function, NumKeys: 1, KeysKnown: true, MaxBytes: 1 << 16})
		lines := strings.Count(string(src), "\n") + 1
		for _, fd := range res.Findings {
			if fd.Rule == "" || fd.Message == "" || fd.Pos.Line < 1 || fd.Pos.Line > lines {
				t.Fatalf("bad finding %+v (script has %d lines)", fd, lines)
			}
		}
	})
}
