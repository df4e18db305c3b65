// Package jobs is the shop's background job queue: emails, invoices,
// stock syncs. The queue's functions live in the Redis Functions library
// lua/jobs.lua, which the deploy loads with
// redis-cli -x FUNCTION LOAD REPLACE < lua/jobs.lua.
package jobs

import (
	"context"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
)

// Queue is one named job queue. Its keys share the tag {queue name}.
type Queue struct {
	rdb  redis.UniversalClient
	name string
}

// NewQueue returns the queue of that name.
func NewQueue(rdb redis.UniversalClient, name string) *Queue {
	return &Queue{rdb: rdb, name: name}
}

func pendingKey(queue string) string { return "jobs:{" + queue + "}:pending" }
func runningKey(queue string) string { return "jobs:{" + queue + "}:running" }

// Push adds a job to the queue.
func (q *Queue) Push(ctx context.Context, payload string) error {
	return q.rdb.FCall(ctx, "jobs_push", []string{pendingKey(q.name)}, payload).Err()
}

// Claim moves the oldest job to the running list and returns it.
func (q *Queue) Claim(ctx context.Context) (string, error) {
	return q.rdb.FCall(ctx, "jobs_claim", []string{pendingKey(q.name), runningKey(q.name)}).Text()
}

// Done removes a finished job from the running list.
func (q *Queue) Done(ctx context.Context, payload string) error {
	return q.rdb.LRem(ctx, runningKey(q.name), 1, payload).Err()
}

// Scheduler runs the periodic jobs on one instance of the service only.
type Scheduler struct {
	rdb redis.UniversalClient
}

// NewScheduler returns the scheduler.
func NewScheduler(rdb redis.UniversalClient) *Scheduler { return &Scheduler{rdb: rdb} }

// Lead tries to become the instance that runs the periodic jobs for the
// next minute.
func (s *Scheduler) Lead(ctx context.Context) (bool, error) {
	host, err := os.Hostname()
	if err != nil {
		return false, err
	}
	// SL1301: if the instance dies between SETNX and EXPIRE, the key has
	// no TTL and no instance ever leads again.
	ok, err := s.rdb.SetNX(ctx, "scheduler:leader", host, 0).Result()
	if err != nil || !ok {
		return false, err
	}
	s.rdb.Expire(ctx, "scheduler:leader", time.Minute)
	return true, nil
}
