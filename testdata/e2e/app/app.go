// Package app is a small service using go-redis v9 with deliberate bugs.
package app

import (
	"context"

	"github.com/redis/go-redis/v9"

	"example.com/e2e/keys"
)

type Store struct {
	rdb redis.UniversalClient
}

func (s *Store) Logout(ctx context.Context, id string) error {
	return s.rdb.Del(ctx, keys.Session(id), keys.Tokens(id)).Err()
}

func (s *Store) Counts(ctx context.Context) ([]interface{}, error) {
	return s.rdb.MGet(ctx, "count:a", "count:b").Result()
}

func (s *Store) Cart(ctx context.Context, id string) (map[string]string, error) {
	return s.rdb.HGetAll(ctx, keys.Cart(id)).Result()
}

func (s *Store) Hot(ctx context.Context, id string) error {
	return s.rdb.Incr(ctx, "{stats}:"+id).Err()
}

func (s *Store) Move(ctx context.Context, id string) error {
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, keys.Cart(id))
		p.Incr(ctx, "carts:deleted")
		return nil
	})
	return err
}
