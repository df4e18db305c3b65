package slot

import (
	"github.com/sigurn/crc16"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkSlot measures Slot on untagged keys of several lengths next to the
// bit-by-bit reference CRC16 and the crc16 package's byte-at-a-time
// Checksum over the same bytes, so ns/byte of all three come from one run.
func BenchmarkSlot(b *testing.B) {
	for _, n := range []int{8, 64, 1024} {
		key := strings.Repeat("k", n-4) + "9999"
		b.Run("len="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			sink := 0
			for b.Loop() {
				sink += Slot(key)
			}
			if sink < 0 {
				b.Fatal(sink)
			}
		})
		b.Run("crc16-bytewise/len="+strconv.Itoa(n), func(b *testing.B) {
			data := []byte(key)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			sink := 0
			for b.Loop() {
				sink += int(crc16.Checksum(data, xmodem) % Count)
			}
			if sink < 0 {
				b.Fatal(sink)
			}
		})
		b.Run("reference/len="+strconv.Itoa(n), func(b *testing.B) {
			data := []byte(key)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			sink := 0
			for b.Loop() {
				sink += int(referenceCRC16(data) % Count)
			}
			if sink < 0 {
				b.Fatal(sink)
			}
		})
	}
}
