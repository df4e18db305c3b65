package runtime

import (
	"context"
	"sync"

	"github.com/redis/go-redis/v9"
)

// maxBatch bounds the calls one pipeline of the batcher carries.
const maxBatch = 256

// batcher shares round trips between concurrent script calls of one Client
// (MaxUpdate): while one pipeline is in flight the calls that arrive queue,
// and the first of them sends the whole queue as the next pipeline when the
// reply is in. A call that finds nothing in flight goes out at once on its
// own, so a single caller pays no delay; under load many calls share one
// write and one read. Each script still runs atomically on its own, and the
// order of calls of one goroutine is kept (it waits for each reply).
type batcher struct {
	mu    sync.Mutex
	busy  bool // a pipeline (or a lone call) is in flight
	queue []*batchCall
}

type batchCall struct {
	Call
	reply any
	err   error
	done  chan struct{} // closed when reply and err are set
	lead  chan struct{} // signalled when this call is to send the next pipeline
}

// runBatched runs the script like run, sharing the round trip with
// concurrent callers when the client can pipeline.
func (c *Client) runBatched(ctx context.Context, s *Script, keys []string, args ...any) (any, error) {
	if _, ok := c.rdb.(pipeliner); !ok {
		return c.run(ctx, s, keys, args...)
	}
	b := &c.batch
	b.mu.Lock()
	if !b.busy {
		b.busy = true
		b.mu.Unlock()
		reply, err := c.run(ctx, s, keys, args...)
		c.handOn(ctx)
		return reply, err
	}
	call := &batchCall{Call: Call{Script: s, Keys: keys, Args: args}, done: make(chan struct{}), lead: make(chan struct{}, 1)}
	b.queue = append(b.queue, call)
	b.mu.Unlock()
	// A caller whose context ends still waits for its call: the pipeline
	// it is part of is already on its way, and a queued call may have to
	// send the next one.
	select {
	case <-call.done:
	case <-call.lead:
		c.flush(ctx)
		<-call.done
	}
	return call.reply, call.err
}

// handOn ends this caller's turn at sending: the first queued call, if any,
// sends the queue next.
func (c *Client) handOn(ctx context.Context) {
	b := &c.batch
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.queue) == 0 {
		b.busy = false
		return
	}
	b.queue[0].lead <- struct{}{}
}

// flush sends up to maxBatch queued calls as one pipeline and hands on.
func (c *Client) flush(ctx context.Context) {
	b := &c.batch
	b.mu.Lock()
	n := min(len(b.queue), maxBatch)
	calls := make([]*batchCall, n)
	copy(calls, b.queue)
	b.queue = append(b.queue[:0], b.queue[n:]...)
	b.mu.Unlock()

	// The pipeline carries other callers' calls: this caller's deadline
	// or cancellation must not fail them.
	pctx := context.WithoutCancel(ctx)
	plain := make([]Call, n)
	for i, call := range calls {
		plain[i] = call.Call
	}
	cmds, err := c.RunPipelined(pctx, plain)
	for i, call := range calls {
		if err != nil {
			call.err = err
		} else {
			call.reply, call.err = cmds[i].(*redis.Cmd).Val(), cmds[i].Err()
		}
	}
	c.handOn(ctx)
	for _, call := range calls {
		close(call.done)
	}
}
