package slot_test

import (
	"math/rand/v2"
	"testing"

	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

// TestSlotAgreesWithRedis compares Slot with CLUSTER KEYSLOT of a real
// cluster for 10,000 random keys.
func TestSlotAgreesWithRedis(t *testing.T) {
	seed := rand.Uint64()
	keys := redistest.RandomKeys(rand.New(rand.NewPCG(seed, 1)), 10000, false)
	want := redistest.KeySlots(t, keys)
	bad := 0
	for i, k := range keys {
		if got := slot.Slot(k); int64(got) != want[i] {
			bad++
			if bad <= 10 {
				t.Errorf("Slot(%q) = %d, Redis says %d (seed %d)", k, got, want[i], seed)
			}
		}
		if got := slot.SlotBytes([]byte(k)); int64(got) != want[i] {
			t.Errorf("SlotBytes(%q) = %d, Redis says %d (seed %d)", k, got, want[i], seed)
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d keys disagree with Redis", bad, len(keys))
	}
}
