package luacheck

import "testing"

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
