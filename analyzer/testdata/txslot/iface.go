package txslot

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// A store that takes a Client or a ClusterClient through an interface of
// its own, listing go-redis's TxPipeline: the pipeliner is go-redis's, so
// its transaction is read like one started on the client itself.
type clienter interface {
	Get(ctx context.Context, key string) *redis.StringCmd
	TxPipeline() redis.Pipeliner
	TxPipelined(ctx context.Context, fn func(redis.Pipeliner) error) ([]redis.Cmder, error)
	Pipeline() redis.Pipeliner
}

type tokenStore struct {
	cli clienter
	ns  string
}

func (s *tokenStore) wrapperKey(key string) string {
	return fmt.Sprintf("%s%s", s.ns, key)
}

// Each token is a key of its own: on a cluster the SETs are in as many
// slots. wrapperKey joins two unknown values, and is followed as a builder.
func (s *tokenStore) create(access, refresh, basicID string, jv []byte) error {
	pipe := s.cli.TxPipeline()
	if refresh != "" {
		pipe.Set(ctx, s.wrapperKey(refresh), basicID, 0)
	}
	pipe.Set(ctx, s.wrapperKey(access), basicID, 0) // want `TxPipeline transaction keys s.ns \+ refresh and s.ns \+ access share no hash tag`
	pipe.Set(ctx, s.wrapperKey(basicID), jv, 0)
	_, err := pipe.Exec(ctx)
	return err
}

// A key whose builder returns its argument as it is stays unknown.
func (s *tokenStore) same(key string) string { return key }

func (s *tokenStore) createSame(access, basicID string, jv []byte) error {
	pipe := s.cli.TxPipeline()
	pipe.Set(ctx, s.same(access), basicID, 0)
	pipe.Set(ctx, s.same(basicID), jv, 0)
	_, err := pipe.Exec(ctx)
	return err
}

func (s *tokenStore) createFn(access, basicID string, jv []byte) error {
	_, err := s.cli.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, s.wrapperKey(access), basicID, 0)
		p.Set(ctx, s.wrapperKey(basicID), jv, 0) // want `TxPipelined transaction keys s.ns \+ access and s.ns \+ basicID share no hash tag`
		return nil
	})
	return err
}

// A plain pipeline through the interface is no transaction.
func (s *tokenStore) plain(access, basicID string) {
	pipe := s.cli.Pipeline()
	pipe.Del(ctx, s.wrapperKey(access))
	pipe.Del(ctx, s.wrapperKey(basicID))
	pipe.Exec(ctx)
}

// A queue whose keys all carry the queue's name as a hash tag.
type streamClient interface {
	TxPipeline() redis.Pipeliner
}

type streamQueue struct {
	redis  streamClient
	zset   string
	stream string
}

func newStreamQueue(c streamClient, name string) *streamQueue {
	return &streamQueue{redis: c, zset: "taskq:{" + name + "}:zset", stream: "taskq:{" + name + "}:stream"}
}

func (q *streamQueue) scheduleDelayed(bodies []string) error {
	pipe := q.redis.TxPipeline()
	for _, body := range bodies {
		pipe.XAdd(ctx, &redis.XAddArgs{Stream: q.stream, Values: map[string]any{"body": body}})
		pipe.ZRem(ctx, q.zset, body)
	}
	_, err := pipe.Exec(ctx)
	return err
}

// An interface whose TxPipeline returns a type of the user's code is not
// go-redis's: nothing says what it queues.
type ownPipe interface {
	Set(key, value string)
	Exec() error
}

type ownClient interface {
	TxPipeline() ownPipe
}

func own(c ownClient, a, b string) {
	pipe := c.TxPipeline()
	pipe.Set("x:"+a, "1")
	pipe.Set("y:"+b, "1")
	_ = pipe.Exec()
}
