package redisapi

import "github.com/slotlint/slotlint/analyzer/internal/keyexpr"

// SlotKeys are the keys a transaction needs in one slot: the watched keys,
// then the first key of each queued command, repeated per iteration when
// the command is queued in a loop. One key stands for its command: a
// command whose own keys disagree is a finding of its own.
func (tx *Tx) SlotKeys() []keyexpr.Elem {
	keys := append([]keyexpr.Elem(nil), tx.Watched...)
	for _, call := range tx.Calls {
		if len(call.Keys) == 0 {
			continue
		}
		keys = append(keys, firstKey(call))
	}
	return keys
}
