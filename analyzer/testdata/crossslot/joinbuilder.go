package crossslot

import (
	"fmt"

	"github.com/redis/go-redis/v9"
)

// A store whose key builder joins a namespace and a key, both unknown:
// the builder is followed, so two of its keys are two keys of one prefix.
type nsStore struct {
	rdb *redis.ClusterClient
	ns  string
}

func (s *nsStore) wrapperKey(key string) string {
	return fmt.Sprintf("%s%s", s.ns, key)
}

func (s *nsStore) joined(key string) string { return s.ns + key }

func (s *nsStore) tagged(key string) string { return s.ns + "{" + key + "}" }

func (s *nsStore) ident(key string) string { return key }

func (s *nsStore) lookups(a, b string) {
	s.rdb.MGet(ctx, s.wrapperKey(a), s.wrapperKey(b)) // want `MGET keys s.ns \+ a and s.ns \+ b share no hash tag`
	s.rdb.MGet(ctx, s.joined(a), s.joined(b))         // want `MGET keys s.ns \+ a and s.ns \+ b share no hash tag`
	s.rdb.MGet(ctx, s.wrapperKey(a), s.wrapperKey(a))
	s.rdb.MGet(ctx, s.tagged(a), s.tagged(a)+":meta")
	// A builder that returns its argument as it is builds nothing.
	s.rdb.MGet(ctx, s.ident(a), s.ident(b))
}
