// Package keysout writes the key-design map of slotlint keys as a text
// table, JSON, Graphviz or one self-contained HTML page (docs/keys.md).
package keysout
