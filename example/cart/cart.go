// Package cart is a small shopping-cart service on Redis, written the way
// such code often is: it works on a single Redis and breaks on a cluster.
package cart

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store keeps carts, their item counts and the shop's statistics.
type Store struct {
	rdb redis.UniversalClient
}

func New(rdb redis.UniversalClient) *Store { return &Store{rdb: rdb} }

func itemsKey(userID string) string { return "cart:" + userID + ":items" }
func countKey(userID string) string { return "cart:" + userID + ":count" }

// Add puts an item in the cart and bumps the counters atomically.
func (s *Store) Add(ctx context.Context, userID, sku string, qty int) error {
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HIncrBy(ctx, itemsKey(userID), sku, int64(qty))
		p.IncrBy(ctx, countKey(userID), int64(qty))
		p.Incr(ctx, "stats:items-added")
		return nil
	})
	return err
}

// Summary reads a cart's count and its last update.
func (s *Store) Summary(ctx context.Context, userID string) ([]interface{}, error) {
	return s.rdb.MGet(ctx, countKey(userID), fmt.Sprintf("cart:%s:updated", userID)).Result()
}

// Clear empties a cart.
func (s *Store) Clear(ctx context.Context, userID string) error {
	return s.rdb.Del(ctx, itemsKey(userID), countKey(userID)).Err()
}

// Touch records activity in a per-day set shared by every user.
func (s *Store) Touch(ctx context.Context, userID string) error {
	day := time.Now().UTC().Format("2006-01-02")
	return s.rdb.SAdd(ctx, "{active}:"+day, userID).Err()
}

// Checkout moves the cart to an order with a script.
var checkout = redis.NewScript(`
local n = redis.call('HLEN', KEYS[1])
redis.call('RENAME', KEYS[1], KEYS[2])
return n`)

func (s *Store) Checkout(ctx context.Context, userID string, orderID int) error {
	return checkout.Run(ctx, s.rdb, []string{itemsKey(userID), "order:" + strconv.Itoa(orderID) + ":items"}).Err()
}

// Archive keeps the cart under a dated name; the tag is never closed.
func (s *Store) Archive(ctx context.Context, userID string) error {
	return s.rdb.Rename(ctx, itemsKey(userID), "archive:{"+userID+":items").Err()
}
