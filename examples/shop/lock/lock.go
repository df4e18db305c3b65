// Package lock is the shop's mutual exclusion on Redis: one worker at a
// time may run a critical section, such as charging an order.
package lock

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrTimeout is returned when the lock stays taken until the context ends.
var ErrTimeout = errors.New("lock: not acquired before the context ended")

// Mutex is a named lock with a TTL, so that a crashed holder does not keep
// it forever.
type Mutex struct {
	rdb   redis.UniversalClient
	name  string
	token string
	ttl   time.Duration
}

// New returns the lock of one resource, e.g. New(rdb, "payment:"+orderID,
// token, 30*time.Second).
func New(rdb redis.UniversalClient, name, token string, ttl time.Duration) *Mutex {
	return &Mutex{rdb: rdb, name: name, token: token, ttl: ttl}
}

func (m *Mutex) key() string { return "lock:{" + m.name + "}" }

// Lock waits until the lock is free and takes it.
func (m *Mutex) Lock(ctx context.Context) error {
	for {
		ok, err := m.rdb.SetNX(ctx, m.key(), m.token, m.ttl).Result()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		// SL1303: every waiter retries every 50ms in step with the others,
		// and the same one can lose again and again.
		select {
		case <-ctx.Done():
			return ErrTimeout
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Unlock releases the lock.
func (m *Mutex) Unlock(ctx context.Context) error {
	// SL1302: if the TTL ran out while we worked, another worker holds the
	// lock now, and this DEL takes it from them.
	return m.rdb.Del(ctx, m.key()).Err()
}
