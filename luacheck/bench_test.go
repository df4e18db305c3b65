package luacheck

import (
	"slices"
	"testing"
)

// BenchmarkAnalyze checks every script of testdata/lua once per iteration.
func BenchmarkAnalyze(b *testing.B) {
	cases := loadCases(b)
	var size int64
	for _, c := range cases {
		size += int64(len(c.src))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cases {
			Analyze(c.src, c.opts)
		}
	}
	b.ReportMetric(float64(len(cases))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkCheckFiles reads and checks the scripts of testdata/lua from
// disk, as the command does, on one goroutine and on one per CPU.
func BenchmarkCheckFiles(b *testing.B) {
	cases := loadCases(b)
	paths := make([]string, len(cases))
	var size int64
	for i, c := range cases {
		paths[i] = c.path
		size += int64(len(c.src))
	}
	for _, bc := range []struct {
		name    string
		workers int
	}{{"sequential", 1}, {"parallel", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				CheckFiles(paths, bc.workers, func(string, []byte) Options { return Options{} })
			}
			b.ReportMetric(float64(len(paths))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
		})
	}
}

// BenchmarkDeepInput times each input of TestDeepInput (ns/op is the time
// for one input, B/op its memory).
func BenchmarkDeepInput(b *testing.B) {
	inputs := deepInputs()
	names := make([]string, 0, len(inputs))
	for name := range inputs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		src := []byte(inputs[name].src)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				Check(src, Options{MaxBytes: 64 << 20})
			}
		})
	}
}

// BenchmarkLongAndChain checks a condition of 4,900 operands joined by
// and: every operand's truth test looks at its neighbours only, so the
// cost grows with the chain, not with its square.
func BenchmarkLongAndChain(b *testing.B) {
	src := []byte(longAndChain(4900))
	for b.Loop() {
		Check(src, Options{})
	}
}
