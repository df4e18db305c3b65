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
//
// Queued MaxUpdate calls of one key, dirty set and member are folded into
// the one with the highest value (see foldMaxUpdates): on hot keys most of
// a pipeline's scripts would otherwise only find the value already higher.
type batcher struct {
	mu    sync.Mutex
	busy  bool // a pipeline (or a lone call) is in flight
	queue []*batchCall
}

type batchCall struct {
	Call
	max   *maxUpdateArgs // set for a MaxUpdate, which may be folded
	reply any
	err   error
	done  chan struct{} // closed when reply and err are set
	lead  chan struct{} // signalled when this call is to send the next pipeline
}

// runBatched runs the script like run, sharing the round trip with
// concurrent callers when the client can pipeline.
func (c *Client) runBatched(ctx context.Context, s *Script, keys []string, args ...any) (any, error) {
	return c.runBatchedCall(ctx, Call{Script: s, Keys: keys, Args: args}, nil)
}

// runBatchedCall is runBatched for a call that may be a MaxUpdate (max set).
func (c *Client) runBatchedCall(ctx context.Context, plain Call, max *maxUpdateArgs) (any, error) {
	if _, ok := c.rdb.(pipeliner); !ok {
		return c.run(ctx, plain.Script, plain.Keys, plain.Args...)
	}
	b := &c.batch
	b.mu.Lock()
	if !b.busy {
		b.busy = true
		b.mu.Unlock()
		reply, err := c.run(ctx, plain.Script, plain.Keys, plain.Args...)
		c.handOn(ctx)
		return reply, err
	}
	call := &batchCall{Call: plain, max: max, done: make(chan struct{}), lead: make(chan struct{}, 1)}
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
	send, folded := foldMaxUpdates(calls)
	pipeErr := c.runCalls(pctx, send)
	// A folded call takes the result of the call it was folded into when
	// that one succeeded, and the pipeline's error when no reply came. When
	// the script failed (a dirty set of the wrong type, say) the folded
	// call's own result may differ, as its value need not rise: those calls,
	// never sent, run now on their own.
	var again []*batchCall
	for _, f := range folded {
		switch {
		case pipeErr != nil:
			f.call.err = pipeErr
		case send[f.into].err == nil:
			f.call.reply = int64(0)
		default:
			again = append(again, f.call)
		}
	}
	if len(again) > 0 {
		c.runCalls(pctx, again)
	}
	c.handOn(ctx)
	for _, call := range calls {
		close(call.done)
	}
}

// runCalls sends calls as one pipeline and sets each one's result. It
// returns the pipeline's error when no call got a reply.
func (c *Client) runCalls(ctx context.Context, calls []*batchCall) error {
	plain := make([]Call, len(calls))
	for i, call := range calls {
		plain[i] = call.Call
	}
	cmds, err := c.RunPipelined(ctx, plain)
	for i, call := range calls {
		if err != nil {
			call.err = err
		} else {
			call.reply, call.err = cmds[i].(*redis.Cmd).Val(), cmds[i].Err()
		}
	}
	return err
}

// maxUpdateArgs are a MaxUpdate's operands, by which queued calls fold.
type maxUpdateArgs struct {
	key, dirtySet, member string
	value                 int64
}

// foldedCall is a MaxUpdate that is not sent: the call it was folded into,
// send[into], carries a value at least as high for the same key, dirty set
// and member.
type foldedCall struct {
	call *batchCall
	into int
}

// foldMaxUpdates returns the calls to send, with the MaxUpdates of one key,
// dirty set and member reduced to the one of highest value (the first of
// equals), and the calls folded away. Queued calls are all in flight at
// once, so any order of them is one Redis could have run: the highest
// first, after which the others find the value at least as high and return
// 0 without writing. That is the result each folded call gets.
func foldMaxUpdates(calls []*batchCall) (send []*batchCall, folded []foldedCall) {
	var highest map[maxUpdateArgs]int // operands without value -> index in send
	for _, call := range calls {
		if call.max == nil {
			send = append(send, call)
			continue
		}
		if highest == nil {
			highest = make(map[maxUpdateArgs]int)
		}
		group := *call.max
		group.value = 0
		i, seen := highest[group]
		switch {
		case !seen:
			highest[group] = len(send)
			send = append(send, call)
		case call.max.value > send[i].max.value:
			folded = append(folded, foldedCall{call: send[i], into: i})
			send[i] = call
		default:
			folded = append(folded, foldedCall{call: call, into: i})
		}
	}
	return send, folded
}
