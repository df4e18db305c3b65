package keysout

import (
	"encoding/json"
	"io"

	"github.com/slotlint/slotlint/analyzer/keymap"
)

// JSON writes the map in its documented JSON form (docs/keys.md), indented.
func JSON(w io.Writer, m *keymap.Map) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // patterns read "order:{<id>}", not "\u003cid\u003e"
	return enc.Encode(m)
}
