// Package orders turns carts into orders and reports on them.
package orders

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store is the order store.
type Store struct {
	rdb redis.UniversalClient
}

// New returns a Store on a standalone, Sentinel or cluster client.
func New(rdb redis.UniversalClient) *Store { return &Store{rdb: rdb} }

func orderKey(id int64) string { return "order:{" + strconv.FormatInt(id, 10) + "}" }

// checkout moves a cart's items into a new order in one step.
var checkout = redis.NewScript(`
local n = redis.call('HLEN', KEYS[1])
if n == 0 then
  return 0
end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('DEL', KEYS[3])
return n
`)

// Checkout places an order with the items of the user's cart.
func (s *Store) Checkout(ctx context.Context, userID string, id int64) (int64, error) {
	// SL1004: the cart's keys are tagged by user and the order's by order
	// id, so the script's keys are in different slots.
	keys := []string{"cart:{" + userID + "}:items", orderKey(id) + ":items", "cart:{" + userID + "}:count"}
	return checkout.Run(ctx, s.rdb, keys).Int64()
}

// cancel marks an order cancelled and takes it off the user's open list.
var cancel = redis.NewScript(`
redis.call('HSET', KEYS[1], 'status', 'cancelled')
redis.call('SREM', KEYS[2], ARGV[1])
return 1
`)

// Cancel cancels an order of a user.
func (s *Store) Cancel(ctx context.Context, id int64) error {
	// SL1201: the script removes the order from KEYS[2], the user's open
	// orders, but only KEYS[1] is passed: KEYS[2] is nil in the script.
	return cancel.Run(ctx, s.rdb, []string{orderKey(id)}, id).Err()
}

// nextNumber hands out the day's order numbers.
var nextNumber = redis.NewScript(`return redis.call('INCR', ARGV[1])`)

// Number returns the next order number of the day.
func (s *Store) Number(ctx context.Context) (int64, error) {
	day := time.Now().UTC().Format("20060102")
	// SL1203: no keys are passed, so a cluster client sends the script to
	// any master. LUA201: the counter's key comes from ARGV, so Redis
	// cannot know it; on a cluster the node may not own it.
	return nextNumber.Run(ctx, s.rdb, nil, "orders:seq:"+day).Int64()
}

// Status returns an order's status and total, for the order page.
func (s *Store) Status(ctx context.Context, id string) ([]any, error) {
	// SL1002: two keys of one order with no hash tag in common.
	return s.rdb.MGet(ctx, "order:"+id+":status", "order:"+id+":total").Result()
}

// Dashboard reads the shop-wide counters.
func (s *Store) Dashboard(ctx context.Context) ([]any, error) {
	// SL1001: two fixed keys, in slots 8178 and 13039.
	return s.rdb.MGet(ctx, "orders:placed", "orders:shipped").Result()
}
