package crossslot

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A token store in the image of one that takes either a Client or a
// ClusterClient through an interface of its own, listing go-redis's
// methods as they are: whatever implements it sends go-redis's commands.
type clienter interface {
	Get(ctx context.Context, key string) *redis.StringCmd
	Exists(ctx context.Context, keys ...string) *redis.IntCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

type tokenStore struct {
	cli clienter
	ns  string
}

func (s *tokenStore) removeBoth(ctx context.Context, access, refresh string) {
	s.cli.Del(ctx, s.ns+access, s.ns+refresh) // want `DEL keys s.ns \+ access and s.ns \+ refresh share no hash tag`
	s.cli.Exists(ctx, "token:{"+access+"}", "data:{"+access+"}")
	s.cli.Get(ctx, s.ns+access)
}

// A wrapper whose methods are not go-redis's (no context, a plain
// result) says nothing of what it sends: not read.
type keyDeleter interface {
	Del(keys ...string) error
	MGet(ctx context.Context, keys ...string) ([]string, error)
}

func (s *tokenStore) removeThrough(ctx context.Context, d keyDeleter, a, b string) {
	d.Del("x:"+a, "y:"+b)
	d.MGet(ctx, "x:"+a, "y:"+b)
}
