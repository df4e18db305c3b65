package runtime

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/slotlint/slotlint/slot"
)

// Key builds a key of the family/id/parts shape with the id as its hash tag:
//
//	Key("order", "42", "lock")  == "order:{42}:lock"
//	Key("order", "42", "state") == "order:{42}:state"
//
// Keys built from the same family and id hash to the same Redis Cluster slot
// whatever the parts are, so one script or transaction may use all of them.
// The id should be non-empty and free of braces: an empty tag ("{}") is
// ignored by Redis, and the operations of this package then report
// ErrCrossSlot instead of silently spreading a family over the cluster.
func Key(family, id string, parts ...string) string {
	n := len(family) + len(id) + 3
	for _, p := range parts {
		n += len(p) + 1
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(family)
	b.WriteString(":{")
	b.WriteString(id)
	b.WriteByte('}')
	for _, p := range parts {
		b.WriteByte(':')
		b.WriteString(p)
	}
	return b.String()
}

// SameSlot reports, with an error wrapping ErrCrossSlot, whether the keys
// hash to different cluster slots, and with ErrInvalidArgument whether one of
// them is empty. It needs no connection.
func SameSlot(keys ...string) error {
	for _, k := range keys {
		if k == "" {
			return invalidArg("empty key")
		}
	}
	if len(keys) < 2 {
		return nil
	}
	first := slot.Slot(keys[0])
	for _, k := range keys[1:] {
		if s := slot.Slot(k); s != first {
			return fmt.Errorf("%w: %q (slot %d) and %q (slot %d); give them a common hash tag, e.g. with Key",
				ErrCrossSlot, keys[0], first, k, s)
		}
	}
	return nil
}

// derivedKey returns the key that the package keeps next to key (a lock's
// wake-up list). It shares key's slot exactly when key has a hash tag.
func derivedKey(key, suffix string) string {
	return key + ":" + suffix
}

// fencePrefix names the fencing counters: one per hash slot, shared by every
// lock of the slot, so their number stays at most 16384 however many locks
// there are (a counter per lock key would leave one key behind per entity
// ever locked).
const fencePrefix = "slotlint:fence:"

// fencingKey returns the fencing counter of the lock at key: the counter of
// key's slot, whose hash tag is the shortest base-36 number that hashes to
// that slot. The tags are part of the stored format: changing them would
// start every lock's tokens again from 1.
func fencingKey(key string) string {
	return fencePrefix + "{" + slotTags()[slot.Slot(key)] + "}"
}

// slotTags maps each slot to its tag: the first of 0, 1, ..., z, 10, ...
// (in base 36) that hashes to it. Building the table takes about 170,000
// CRC16s of a few bytes, once.
var slotTags = sync.OnceValue(func() *[slot.Count]string {
	var tags [slot.Count]string
	left := slot.Count
	for n := uint64(0); left > 0; n++ {
		tag := strconv.FormatUint(n, 36)
		if s := slot.Slot(tag); tags[s] == "" {
			tags[s] = tag
			left--
		}
	}
	return &tags
})
