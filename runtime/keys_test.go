package runtime

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

func TestKey(t *testing.T) {
	for _, c := range []struct {
		family, id string
		parts      []string
		want       string
	}{
		{"order", "42", []string{"lock"}, "order:{42}:lock"},
		{"order", "42", nil, "order:{42}"},
		{"a", "b", []string{"c", "d"}, "a:{b}:c:d"},
		{"", "x", nil, ":{x}"},
	} {
		if got := Key(c.family, c.id, c.parts...); got != c.want {
			t.Errorf("Key(%q, %q, %q) = %q, want %q", c.family, c.id, c.parts, got, c.want)
		}
	}
}

// TestKeySlotsAgreeWithRedis checks on the cluster that keys built by Key
// from one family and id share a slot, for ids of every shape Redis's slot
// rule cares about, and that SameSlot predicts exactly what Redis computes.
func TestKeySlotsAgreeWithRedis(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	ids := redistest.RandomKeys(r, 300, true)
	var keys []string
	for _, id := range ids {
		keys = append(keys, Key("order", id, "lock"), Key("order", id, "lock", "fence"), Key("order", id, "state"))
	}
	slots := redistest.KeySlots(t, keys)
	for i := 0; i < len(keys); i += 3 {
		same := slots[i] == slots[i+1] && slots[i] == slots[i+2]
		err := SameSlot(keys[i], keys[i+1], keys[i+2])
		if same != (err == nil) {
			t.Errorf("keys %q: Redis slots %v, SameSlot says %v", keys[i:i+3], slots[i:i+3], err)
		}
		if err != nil && !errors.Is(err, ErrCrossSlot) {
			t.Errorf("SameSlot(%q): %v is not ErrCrossSlot", keys[i:i+3], err)
		}
		// The only way Key's family loses its common slot is an empty
		// first tag.
		tag, ok := slot.Tag(keys[i])
		if !same && ok && tag != "" {
			t.Errorf("keys %q have tag %q but Redis puts them in slots %v", keys[i:i+3], tag, slots[i:i+3])
		}
	}
}

func TestSameSlotErrors(t *testing.T) {
	if err := SameSlot("a:{1}:x", "b:{1}:y"); err != nil {
		t.Errorf("same tag: %v", err)
	}
	if err := SameSlot("a:{1}:x", "a:{2}:x"); !errors.Is(err, ErrCrossSlot) {
		t.Errorf("different tags: %v, want ErrCrossSlot", err)
	}
	if err := SameSlot("a", ""); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("empty key: %v, want ErrInvalidArgument", err)
	}
	if err := SameSlot(); err != nil {
		t.Errorf("no keys: %v", err)
	}
}

// FuzzKey checks Key's contract for any input: the result is the parts
// joined around a braced id, and every key of one family and id shares a
// slot unless the first tag Redis would see is empty.
func FuzzKey(f *testing.F) {
	f.Add("order", "42", "lock", "state")
	f.Add("a{", "", "x", "y")
	f.Add("f", "}", "{", "}")
	f.Add("{", "{}", "", "")
	f.Fuzz(func(t *testing.T, family, id, p1, p2 string) {
		k1, k2 := Key(family, id, p1), Key(family, id, p2)
		want := family + ":{" + id + "}:" + p1
		if k1 != want {
			t.Fatalf("Key = %q, want %q", k1, want)
		}
		prefix := family + ":{" + id + "}"
		if !strings.HasPrefix(k2, prefix) {
			t.Fatalf("Key %q lacks prefix %q", k2, prefix)
		}
		tag, ok := slot.Tag(k1)
		err := SameSlot(k1, k2)
		if ok && err != nil {
			t.Fatalf("keys %q and %q with tag %q: %v", k1, k2, tag, err)
		}
		if err != nil && !errors.Is(err, ErrCrossSlot) {
			t.Fatalf("SameSlot: %v", err)
		}
	})
}
