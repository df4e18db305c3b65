package runtime

import (
	"encoding/binary"
	"testing"
	"time"
)

func TestParseObtainReply(t *testing.T) {
	for _, c := range []struct {
		reply any
		want  obtainReply
		ok    bool
	}{
		{[]any{int64(1), int64(7), int64(2), int64(900)}, obtainReply{acquired: true, fence: 7, count: 2, lease: 900 * time.Millisecond}, true},
		{[]any{int64(1), int64(7), int64(2)}, obtainReply{}, false},
		{[]any{int64(1), int64(7), int64(2), int64(-1)}, obtainReply{}, false},
		{[]any{int64(0), int64(1500), int64(3), int64(0), int64(4), int64(2)}, obtainReply{holderTTL: 1500 * time.Millisecond, place: 3, wake: 4, ahead: 2}, true},
		{[]any{int64(0), int64(40), int64(0), int64(1), int64(0), int64(0)}, obtainReply{holderTTL: 40 * time.Millisecond, reserved: true}, true},
		{[]any{int64(0), int64(40), int64(0), int64(2), int64(0), int64(0)}, obtainReply{}, false},
		{[]any{int64(0), int64(40), int64(0), int64(1), int64(-1), int64(0)}, obtainReply{}, false},
		{[]any{int64(0), int64(40), int64(0), int64(1), int64(0), int64(-1)}, obtainReply{}, false},
		{[]any{int64(0), int64(40), int64(0), int64(1), int64(0)}, obtainReply{}, false},
		{[]any{int64(0), int64(40), int64(0), int64(1)}, obtainReply{}, false},
		{[]any{int64(0), int64(1500)}, obtainReply{}, false},
		{[]any{int64(0), int64(-1), int64(0), int64(0), int64(0), int64(0)}, obtainReply{holderTTL: -1}, true},
		{[]any{int64(1), int64(0), int64(1), int64(5)}, obtainReply{}, false},
		{[]any{int64(1), int64(3)}, obtainReply{}, false},
		{[]any{"1", int64(3), int64(1)}, obtainReply{}, false},
		{int64(1), obtainReply{}, false},
		{nil, obtainReply{}, false},
	} {
		got, err := parseObtainReply(c.reply)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseObtainReply(%v) = %+v, %v; want %+v, ok=%v", c.reply, got, err, c.want, c.ok)
		}
	}
}

// FuzzParseObtainReply feeds arbitrary reply shapes: the parser must never
// panic and must only report a lock as acquired with a positive fence and
// count, and a holder TTL that is -1 or a non-negative whole millisecond.
func FuzzParseObtainReply(f *testing.F) {
	f.Add([]byte{1, 1, 7, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{2, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		reply := decodeReply(data)
		r, err := parseObtainReply(reply)
		if err != nil {
			return
		}
		if r.acquired && (r.fence <= 0 || r.count <= 0 || r.lease < 0) {
			t.Fatalf("acquired with fence %d count %d lease %v from %v", r.fence, r.count, r.lease, reply)
		}
		if !r.acquired && (r.place < 0 || r.wake < 0 || r.ahead < 0) {
			t.Fatalf("place %d, wake %d, ahead %d from %v", r.place, r.wake, r.ahead, reply)
		}
		if !r.acquired && r.holderTTL != -1 && (r.holderTTL < 0 || r.holderTTL%time.Millisecond != 0) {
			t.Fatalf("holder TTL %v from %v", r.holderTTL, reply)
		}
		if _, err := parseInts(reply, 0, 8); err != nil {
			t.Fatalf("parseObtainReply accepted %v that parseInts rejects: %v", reply, err)
		}
	})
}

// decodeReply turns fuzz bytes into a reply of the shapes go-redis produces:
// int64, string, nil, or an array of them.
func decodeReply(data []byte) any {
	if len(data) == 0 {
		return nil
	}
	kind, data := data[0]%4, data[1:]
	switch kind {
	case 0:
		return string(data)
	case 1:
		var b [8]byte
		copy(b[:], data)
		return int64(binary.LittleEndian.Uint64(b[:]))
	case 2:
		var arr []any
		for len(data) > 0 && len(arr) < 6 {
			tag := data[0]
			data = data[1:]
			switch tag % 3 {
			case 0:
				var b [8]byte
				n := copy(b[:], data)
				data = data[n:]
				arr = append(arr, int64(binary.LittleEndian.Uint64(b[:])))
			case 1:
				arr = append(arr, int64(tag%5)-1)
			default:
				arr = append(arr, "x")
			}
		}
		return arr
	}
	return nil
}
