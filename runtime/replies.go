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
	return appendInts(make([]int64, 0, max), reply, min, max)
}

// appendInts is parseInts into buf, so that callers with a fixed bound can
// keep the numbers on the stack.
func appendInts(buf []int64, reply any, min, max int) ([]int64, error) {
	arr, ok := reply.([]any)
	if !ok || len(arr) < min || len(arr) > max {
		return nil, fmt.Errorf("runtime: unexpected script reply %T %v", reply, reply)
	}
	for _, v := range arr {
		n, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("runtime: unexpected script reply element %T %v", v, v)
		}
		buf = append(buf, n)
	}
	return buf, nil
}

type obtainReply struct {
	acquired  bool
	fence     int64
	count     int64
	lease     time.Duration // the lease left after the acquisition
	holderTTL time.Duration
	place     int64 // the caller's place in the lock's queue, 0 when not queued
	reserved  bool  // the lock is reserved for another queued caller
	wake      int64 // the place of a caller the attempt reserved the lock for, to wake; 0 when none
	ahead     int64 // callers queued ahead of the caller, the one the lock is reserved for included
}

// parseObtainReply reads {1, fence, count, pttl} or {0, pttl, place,
// reserved, wake, ahead}.
func parseObtainReply(reply any) (obtainReply, error) {
	var buf [6]int64
	v, err := appendInts(buf[:0], reply, 4, 6)
	if err != nil {
		return obtainReply{}, err
	}
	switch {
	case v[0] == 1 && len(v) == 4 && v[1] > 0 && v[2] > 0 && v[3] >= 0 && v[3] < int64(maxDuration/time.Millisecond):
		return obtainReply{acquired: true, fence: v[1], count: v[2], lease: time.Duration(v[3]) * time.Millisecond}, nil
	case v[0] == 0 && len(v) == 6 && v[2] >= 0 && (v[3] == 0 || v[3] == 1) && v[4] >= 0 && v[5] >= 0:
		ttl := time.Duration(-1)
		if v[1] >= 0 && v[1] < int64(maxDuration/time.Millisecond) {
			ttl = time.Duration(v[1]) * time.Millisecond
		}
		return obtainReply{holderTTL: ttl, place: v[2], reserved: v[3] == 1, wake: v[4], ahead: v[5]}, nil
	}
	return obtainReply{}, fmt.Errorf("runtime: unexpected lock reply %v", reply)
}

// parseReleaseReply reads {count}, {0}, {0, fence, place} or {-1}: the
// entries still held (-1 when the token did not hold the lock) and, when
// the release reserved the lock for a queued caller, the reservation's
// fencing token and that caller's place, else 0 and 0.
func parseReleaseReply(reply any) (left, fence, place int64, err error) {
	var buf [3]int64
	v, err := appendInts(buf[:0], reply, 1, 3)
	if err != nil {
		return 0, 0, 0, err
	}
	switch {
	case len(v) == 1 && v[0] >= -1:
		return v[0], 0, 0, nil
	case len(v) == 3 && v[0] == 0 && v[1] > 0 && v[2] > 0:
		return 0, v[1], v[2], nil
	}
	return 0, 0, 0, fmt.Errorf("runtime: unexpected release reply %v", reply)
}

// parseRefreshReply reads {1, pttl} (renewed, with the lease left) or {0}
// (the token does not hold the lock).
func parseRefreshReply(reply any) (held bool, lease time.Duration, err error) {
	var buf [2]int64
	v, err := appendInts(buf[:0], reply, 1, 2)
	if err != nil {
		return false, 0, err
	}
	switch {
	case len(v) == 1 && v[0] == 0:
		return false, 0, nil
	case len(v) == 2 && v[0] == 1 && v[1] >= 0 && v[1] < int64(maxDuration/time.Millisecond):
		return true, time.Duration(v[1]) * time.Millisecond, nil
	}
	return false, 0, fmt.Errorf("runtime: unexpected refresh reply %v", reply)
}

const maxDuration = time.Duration(1<<63 - 1)
