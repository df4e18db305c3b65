// Package cart keeps shopping carts in Redis: the items of a cart in a
// hash, its item count, and the shop's activity statistics.
package cart

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store is the cart store. The keys of one cart share the hash tag
// {userID}, so a cart's commands and transactions stay in one slot.
type Store struct {
	rdb redis.UniversalClient
}

// New returns a Store on a standalone, Sentinel or cluster client.
func New(rdb redis.UniversalClient) *Store { return &Store{rdb: rdb} }

func itemsKey(userID string) string { return "cart:{" + userID + "}:items" }
func countKey(userID string) string { return "cart:{" + userID + "}:count" }

// Add puts qty of an item in the cart and bumps the counters atomically.
func (s *Store) Add(ctx context.Context, userID, sku string, qty int) error {
	// SL1003: the shop-wide counter is not in the cart's slot, so on a
	// cluster the whole transaction is refused (EXECABORT).
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HIncrBy(ctx, itemsKey(userID), sku, int64(qty))
		p.IncrBy(ctx, countKey(userID), int64(qty))
		p.Incr(ctx, "stats:items-added")
		return nil
	})
	return err
}

// Items returns the cart's items and quantities.
func (s *Store) Items(ctx context.Context, userID string) (map[string]string, error) {
	return s.rdb.HGetAll(ctx, itemsKey(userID)).Result()
}

// Clear empties a cart.
func (s *Store) Clear(ctx context.Context, userID string) error {
	return s.rdb.Del(ctx, itemsKey(userID), countKey(userID)).Err()
}

// Touch records that the user was active today.
func (s *Store) Touch(ctx context.Context, userID string) error {
	day := time.Now().UTC().Format("2006-01-02")
	// SL1101: every day's set has the tag {active}, so all of them live
	// in one slot: one shard takes every write of every day.
	return s.rdb.SAdd(ctx, "{active}:"+day, userID).Err()
}

// Remind marks the cart for an abandoned-cart email in a day.
func (s *Store) Remind(ctx context.Context, userID string) error {
	// SL1105: the tag is never closed, so Redis hashes the whole key and
	// the reminder is not in the cart's slot.
	return s.rdb.Set(ctx, "cart:{"+userID+":remind", "1", 24*time.Hour).Err()
}

// Abandoned lists every cart, for the nightly abandoned-cart emails.
func (s *Store) Abandoned(ctx context.Context) ([]string, error) {
	// SL1006: KEYS has no key, so a cluster client runs it on one master
	// it picks: on a 3-master cluster the emails go to a third of the
	// carts.
	return s.rdb.Keys(ctx, "cart:*:items").Result()
}
