package redisapi

import (
	"slices"
	"testing"
)

// pairsApart is the apart matrix of k if/else statements in a row, each
// branch one command: vertices 2i and 2i+1 exclude each other.
func pairsApart(k int) [][]bool {
	apart := make([][]bool, 2*k)
	for i := range apart {
		apart[i] = make([]bool, 2*k)
	}
	for i := 0; i < 2*k; i += 2 {
		apart[i][i+1], apart[i+1][i] = true, true
	}
	return apart
}

func TestCliques(t *testing.T) {
	// Three if/else in a row: one branch of each, 2^3 runs.
	var runs [][]int
	if !cliques(pairsApart(3), func(c []int) bool { runs = append(runs, slices.Clone(c)); return true }) {
		t.Fatal("cliques stopped without being asked to")
	}
	if len(runs) != 8 {
		t.Fatalf("got %d runs %v, want 8", len(runs), runs)
	}
	seen := map[string]bool{}
	for _, r := range runs {
		if len(r) != 3 {
			t.Errorf("run %v: want one command of each of the 3 statements", r)
		}
		for _, v := range r {
			if slices.Contains(r, v^1) {
				t.Errorf("run %v holds both branches of one if", r)
			}
		}
		seen[string(rune(r[0]))+string(rune(r[1]))+string(rune(r[2]))] = true
	}
	if len(seen) != 8 {
		t.Errorf("runs repeat: %v", runs)
	}

	// Nothing apart: one run of all.
	runs = nil
	none := pairsApart(2)
	none[0][1], none[1][0], none[2][3], none[3][2] = false, false, false, false
	cliques(none, func(c []int) bool { runs = append(runs, slices.Clone(c)); return true })
	if len(runs) != 1 || !slices.Equal(runs[0], []int{0, 1, 2, 3}) {
		t.Errorf("nothing apart: got %v, want [[0 1 2 3]]", runs)
	}

	// Twenty if/else in a row would be 2^20 runs: listing stops when
	// asked, and says it did not list them all.
	n := 0
	if cliques(pairsApart(20), func([]int) bool { n++; return n <= maxRuns }) {
		t.Error("cliques reported a complete listing after being stopped")
	}
	if n != maxRuns+1 {
		t.Errorf("listed %d runs after the stop, want %d", n, maxRuns+1)
	}

	// Sixty-four commands, two of them apart: two runs, found at once
	// (a search without a pivot visits every subset here).
	near := make([][]bool, 64)
	for i := range near {
		near[i] = make([]bool, 64)
	}
	near[0][1], near[1][0] = true, true
	runs = nil
	if !cliques(near, func(c []int) bool { runs = append(runs, slices.Clone(c)); return true }) {
		t.Fatal("64 commands, one pair apart: the listing gave up")
	}
	if len(runs) != 2 || len(runs[0]) != 63 || len(runs[1]) != 63 {
		t.Errorf("64 commands, one pair apart: got %d runs, want 2 of 63", len(runs))
	}
}
