// Package inventory tracks stock per SKU and reserves it for orders.
package inventory

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store is the stock store.
type Store struct {
	rdb redis.UniversalClient
}

// New returns a Store on a standalone, Sentinel or cluster client.
func New(rdb redis.UniversalClient) *Store { return &Store{rdb: rdb} }

func stockKey(sku string) string { return "stock:{" + sku + "}" }

// Restock adds delivered units to a SKU's stock.
func (s *Store) Restock(ctx context.Context, sku string, n int64) error {
	return s.rdb.IncrBy(ctx, stockKey(sku), n).Err()
}

// Take removes n units from stock when there are enough.
func (s *Store) Take(ctx context.Context, sku string, n int64) (bool, error) {
	have, err := s.rdb.Get(ctx, stockKey(sku)).Int64()
	if err != nil && err != redis.Nil {
		return false, err
	}
	if have < n {
		return false, nil
	}
	// SL1304: another request can take the same units between the GET
	// and this SET; both succeed and the shop oversells.
	return true, s.rdb.Set(ctx, stockKey(sku), have-n, 0).Err()
}

// hold takes units from a SKU's reservable count (KEYS[1], which a job
// refills from the stock) and records the reservation next to it, under
// the same key with ":held" appended.
var hold = redis.NewScript(`
local left = tonumber(redis.call('GET', KEYS[1]) or '0')
local want = tonumber(ARGV[1])
if left < want then
  return 0
end
redis.call('DECRBY', KEYS[1], want)
redis.call('SET', KEYS[1] .. ':held', want, 'EX', 900)
return 1
`)

// Hold reserves n units of a SKU for 15 minutes.
func (s *Store) Hold(ctx context.Context, sku string, n int64) (bool, error) {
	// LUA202: the script writes KEYS[1] .. ':held', which shares KEYS[1]'s
	// slot only if KEYS[1] has a hash tag; "reservable:" + sku has none.
	ok, err := hold.Run(ctx, s.rdb, []string{"reservable:" + sku}, n).Int()
	return ok == 1, err
}

// Levels reads the stock of several SKUs for the stock page.
func (s *Store) Levels(ctx context.Context, keys []string) ([]any, error) {
	// SL1005 (reported with -slotlint.strict): the keys come from the
	// caller, so nothing shows they share a slot.
	return s.rdb.MGet(ctx, keys...).Result()
}

// Location returns the shelf of a SKU in a warehouse.
func (s *Store) Location(ctx context.Context, warehouse, sku string) (string, error) {
	// SL1103: Redis only reads the first tag, {warehouse}; the second,
	// {sku}, is plain text, so every SKU of a warehouse is in one slot.
	return s.rdb.Get(ctx, "{"+warehouse+"}:{"+sku+"}:shelf").Result()
}

// Price returns a SKU's price in cents.
func (s *Store) Price(ctx context.Context, sku string) (int64, error) {
	// SL1102: "{}" was meant as a placeholder; an empty tag is ignored
	// and the whole key is hashed.
	return s.rdb.Get(ctx, "price:{}"+sku).Int64()
}

// Watch adds a user to the SKU's back-in-stock list.
func (s *Store) Watch(ctx context.Context, sku, userID string) error {
	return s.rdb.SAdd(ctx, "watchers:{"+sku+"}", userID).Err()
}

// Notify empties the SKU's back-in-stock list, at most once a minute.
func (s *Store) Notify(ctx context.Context, sku string) ([]string, error) {
	// SL1104: the list is written as "watchers:{" + sku + "}" above and
	// read here without the braces: a different key, always empty.
	users, err := s.rdb.SMembers(ctx, "watchers:"+sku).Result()
	if err != nil {
		return nil, err
	}
	return users, s.rdb.Set(ctx, "notified:{"+sku+"}", strconv.FormatInt(time.Now().Unix(), 10), time.Minute).Err()
}
