// Package slot computes Redis Cluster hash slots exactly as Redis does and
// holds the symbolic key model that slotlint's Go and Lua checkers share.
//
// A key's slot is CRC16-XMODEM of its hash tag, or of the whole key when it
// has no tag, modulo 16384. The tag is the text between the first '{' and the
// first '}' after it, and only counts when it is not empty.
package slot

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/sigurn/crc16"
)

// Count is the number of hash slots in a Redis Cluster.
const Count = 16384

var (
	xmodem = crc16.MakeTable(crc16.CRC16_XMODEM)
	// slicing holds CRC tables for eight bytes at a time, derived from the
	// crc16 package's own table; long keys (values used as keys, JSON ids)
	// hash about 2.5 times faster this way.
	slicing = makeSlicingTables()
)

// slicingMin is the key length from which hashing eight bytes per step pays.
const slicingMin = 16

func makeSlicingTables() *[8][256]uint16 {
	var t [8][256]uint16
	for n := range 256 {
		// XMODEM starts from 0, so one byte's update is its table entry.
		t[0][n] = crc16.Update(0, []byte{byte(n)}, xmodem)
	}
	for k := 1; k < 8; k++ {
		for n := range 256 {
			c := t[k-1][n]
			t[k][n] = c<<8 ^ t[0][c>>8]
		}
	}
	return &t
}

func checksum(data []byte) uint16 {
	if len(data) < slicingMin {
		return crc16.Checksum(data, xmodem)
	}
	t := slicing
	var crc uint16
	for len(data) >= 8 {
		crc = t[7][data[0]^byte(crc>>8)] ^ t[6][data[1]^byte(crc)] ^
			t[5][data[2]] ^ t[4][data[3]] ^ t[3][data[4]] ^
			t[2][data[5]] ^ t[1][data[6]] ^ t[0][data[7]]
		data = data[8:]
	}
	return crc16.Update(crc, data, xmodem)
}

// Slot returns the cluster hash slot of key. The empty key is slot 0, as in
// Redis (go-redis instead picks a random slot for it).
func Slot(key string) int {
	// Reading the string's bytes in place keeps Slot allocation-free; crc16
	// only reads them.
	return SlotBytes(unsafe.Slice(unsafe.StringData(key), len(key)))
}

// SlotBytes is Slot for a key held as bytes.
func SlotBytes(key []byte) int {
	if open := bytes.IndexByte(key, '{'); open >= 0 {
		if end := bytes.IndexByte(key[open+1:], '}'); end > 0 {
			key = key[open+1 : open+1+end]
		}
	}
	return int(checksum(key) & (Count - 1))
}

// Tag returns the hash tag of key and whether it has one. Only the first '{'
// and the first '}' after it matter: "foo{}{bar}" has no tag (the whole key
// is hashed) and "foo{{bar}}zap" has the tag "{bar".
func Tag(key string) (tag string, ok bool) {
	open := strings.IndexByte(key, '{')
	if open < 0 {
		return "", false
	}
	end := strings.IndexByte(key[open+1:], '}')
	if end <= 0 {
		return "", false
	}
	return key[open+1 : open+1+end], true
}

// HashedPart returns the bytes of key that Redis hashes: its tag when it has
// one, else the whole key.
func HashedPart(key string) string {
	if tag, ok := Tag(key); ok {
		return tag
	}
	return key
}
