package runtime

import (
	"fmt"
	"time"
)

// The scripts reply with integers and arrays of integers; go-redis hands
// them over as int64 and []any. A reply of another shape means the key
// holds a script of another version or the server is not Redis-compatible,
// and is reported rather than guessed at.

func parseInt(reply any) (int64, error) {
	n, ok := reply.(int64)
	if !ok {
		return 0, fmt.Errorf("runtime: unexpected script reply %T %v", reply, reply)
	}
	return n, nil
}

func parseInts(reply any, min, max int) ([]int64, error) {
	arr, ok := reply.([]any)
	if !ok || len(arr) < min || len(arr) > max {
		return nil, fmt.Errorf("runtime: unexpected script reply %T %v", reply, reply)
	}
	out := make([]int64, len(arr))
	for i, v := range arr {
		n, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("runtime: unexpected script reply element %T %v", v, v)
		}
		out[i] = n
	}
	return out, nil
}

type obtainReply struct {
	acquired  bool
	fence     int64
	count     int64
	holderTTL time.Duration
}

// parseObtainReply reads {1, fence, count} or {0, pttl}.
func parseObtainReply(reply any) (obtainReply, error) {
	v, err := parseInts(reply, 2, 3)
	if err != nil {
		return obtainReply{}, err
	}
	switch {
	case v[0] == 1 && len(v) == 3 && v[1] > 0 && v[2] > 0:
		return obtainReply{acquired: true, fence: v[1], count: v[2]}, nil
	case v[0] == 0 && len(v) == 2:
		ttl := time.Duration(-1)
		if v[1] >= 0 && v[1] < int64(maxDuration/time.Millisecond) {
			ttl = time.Duration(v[1]) * time.Millisecond
		}
		return obtainReply{holderTTL: ttl}, nil
	}
	return obtainReply{}, fmt.Errorf("runtime: unexpected lock reply %v", v)
}

const maxDuration = time.Duration(1<<63 - 1)
