package slot

import "testing"

// TestFormatCompact: a key that reassigns itself (key = prefix + key, in a
// loop or across calls) shows its repeated prefix once, and a long key its
// first and last parts; short keys print whole.
func TestFormatCompact(t *testing.T) {
	prefix := HoleKey(testID("p"), "r.prefix")
	self := HoleKey(testID("k"), "key")
	var loop []Key
	for range 12 {
		loop = append(loop, prefix)
	}
	sep := Literal(":")
	var pairs []Key
	for range 5 {
		pairs = append(pairs, prefix, sep)
	}
	var long []Key
	for i := range 20 {
		long = append(long, HoleKey(testID(string(rune('a'+i))), string(rune('a'+i))), Literal("-"))
	}
	for _, tt := range []struct {
		key  Key
		want string
	}{
		{Concat(Literal("user:{"), self, Literal("}")), `"user:{" + key + "}"`},
		{Concat(prefix, prefix, self), `r.prefix + r.prefix + key`},
		{Concat(append(loop, self)...), `r.prefix + … + key`},
		{Concat(append(pairs, self)...), `r.prefix + ":" + … + key`},
		{Concat(long...), `a + "-" + b + "-" + c + "-" + … + "-" + s + "-" + t + "-"`},
		{Key{}, `""`},
	} {
		if got := tt.key.String(); got != tt.want {
			t.Errorf("%d parts: %s, want %s", len(tt.key.parts), got, tt.want)
		}
	}
}
