package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/slot"
)

// maxBatch bounds the calls one pipeline of a batcher carries.
const maxBatch = 256

// batcher shares round trips between concurrent script calls of one shard
// (a cluster master; a plain client is one shard): while one pipeline is in
// flight the calls that arrive queue, and the shard's sender sends the
// whole queue as the next pipeline when the reply is in. A call that finds
// nothing in flight goes out at once on its own, so a single caller pays no
// delay; under load many calls share one write and one read. Each script
// still runs atomically on its own, and the order of calls of one goroutine
// is kept (it waits for each reply).
//
// One batcher per shard, not per Client: with one master paused (SIGSTOP) a
// pipeline to it stays in flight until the client's read timeout, and a
// Client-wide queue behind it stalled every slot (a call on a healthy
// master with a 1s deadline returned after 41s). The round trips run on the
// shard's sender goroutine, so a caller whose context ends returns at once
// while its pipeline finishes or fails on its own.
//
// Queued MaxUpdate calls of one key, dirty set and member are folded into
// the one with the highest value (see foldMaxUpdates): on hot keys most of
// a pipeline's scripts would otherwise only find the value already higher.
type batcher struct {
	id   shardKey // its key in Client.batchers
	mu   sync.Mutex
	busy bool // the shard's sender is running
	// direct: a lone call is in flight on its caller's goroutine (see
	// Client.sendsDirect); calls that arrive meanwhile queue, and that
	// caller hands the queue to a sender when its reply is in.
	direct bool
	// used is when the sender or the last lone call on its caller's
	// goroutine finished: an unused batcher is swept from the map after
	// Client.batcherIdle.
	used  time.Time
	gone  bool // swept out of Client.batchers: callers look up a new one
	queue []*batchCall
}

// defaultBatcherIdle is how long a batcher goes unused before it may be
// swept out of its Client's map (see sweepBatchers), so that the map does
// not keep one for every shard the Client ever saw (a master gone after a
// failover or a resharding, the slots of a ring).
const defaultBatcherIdle = time.Second

// States of a batchCall, guarded by its batcher's mu.
const (
	callQueued    = iota // waiting for the next pipeline
	callSent             // in a pipeline in flight
	callFinished         // result set, done closed
	callAbandoned        // the caller left while the call was in flight
)

type batchCall struct {
	Call
	ctx   context.Context // the caller's: a call sent alone runs under it
	max   *maxUpdateArgs  // set for a MaxUpdate, which may be folded
	reply any
	err   error
	state int
	done  chan struct{} // closed when reply and err are set
	// abandoned, when set, gets the result of a call whose caller left
	// while it was in flight (an Obtain that took the lock releases it).
	abandoned func(reply any, err error)
}

// runBatched runs the script like run, sharing the round trip with
// concurrent callers of the same shard when the client can pipeline.
func (c *Client) runBatched(ctx context.Context, s *Script, keys []string, args ...any) (any, error) {
	return c.runBatchedCall(ctx, &batchCall{Call: Call{Script: s, Keys: keys, Args: args}})
}

// errNotSent marks a call whose context ended while it was queued: it never
// reached Redis.
func errNotSent(ctx context.Context) error {
	return fmt.Errorf("call not sent: %w", ctx.Err())
}

// errInFlight marks a call whose context ended while it was in flight: the
// script may still run.
func errInFlight(ctx context.Context) error {
	return fmt.Errorf("no reply before the context ended (the script may still run): %w", ctxErr(ctx))
}

// ctxEnded reports whether ctx has ended or its deadline has passed: a
// client that applies the deadline to its socket may give up a moment
// before the context's own timer marks it done.
func ctxEnded(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// ctxErr is ctx.Err(), or context.DeadlineExceeded when the deadline has
// passed and the context's timer has not marked it yet.
func ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return context.DeadlineExceeded
}

// runBatchedCall is runBatchedOnce, sent again while the keys' slot is
// moving between masters (see moveWait).
func (c *Client) runBatchedCall(ctx context.Context, call *batchCall) (any, error) {
	start := time.Now()
	for attempt := 0; ; attempt++ {
		reply, err := c.runBatchedOnce(ctx, call)
		if !slotInMotion(err) {
			return reply, err
		}
		if !waitForMove(ctx, start, attempt) {
			return nil, movingError(err)
		}
		call = &batchCall{Call: call.Call, max: call.max, abandoned: call.abandoned}
	}
}

// runBatchedOnce queues call on its shard's batcher and waits for its
// result or the end of ctx, whichever comes first. A call whose context
// ends while queued is taken out of the queue and never sent.
func (c *Client) runBatchedOnce(ctx context.Context, call *batchCall) (any, error) {
	if _, ok := c.rdb.(pipeliner); !ok || len(call.Keys) == 0 {
		return c.runOnce(ctx, call.Script, call.Keys, call.Args...)
	}
	if err := ctx.Err(); err != nil {
		return nil, errNotSent(ctx)
	}
	call.ctx = ctx
	if reply, sent, err := c.sendDirect(ctx, call); sent {
		return reply, err
	}
	call.done = make(chan struct{})
	b := c.enqueue(ctx, call)
	select {
	case <-call.done:
		return finishedCall(ctx, call)
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch call.state {
	case callQueued:
		for i, q := range b.queue {
			if q == call {
				b.queue = append(b.queue[:i], b.queue[i+1:]...)
				break
			}
		}
		return nil, errNotSent(ctx)
	case callFinished:
		return finishedCall(ctx, call)
	default:
		call.state = callAbandoned
		return nil, errInFlight(ctx)
	}
}

// finishedCall is the result of a call its sender finished. A transport
// error (no reply) once the caller's context has ended is reported as a
// call in flight at the end of the context, as sendDirect reports it: a
// master's own client that applies the deadline to the socket gives up
// with an i/o timeout.
func finishedCall(ctx context.Context, call *batchCall) (any, error) {
	var rerr redis.Error
	if call.err != nil && !errors.As(call.err, &rerr) && ctxEnded(ctx) {
		return nil, errInFlight(ctx)
	}
	return call.reply, call.err
}

// sendDirect sends call on the caller's goroutine when nothing is in flight
// on its shard and the call cannot outlive its context (Client.sendsDirect):
// the hop through the shard's sender costs a lone call two goroutine
// wake-ups, which on a busy machine made every lock cycle 5-9% slower. It
// reports whether it sent the call; calls queued meanwhile go to the sender
// when the reply is in.
func (c *Client) sendDirect(ctx context.Context, call *batchCall) (reply any, sent bool, err error) {
	if !c.sendsDirect(ctx) || (call.abandoned != nil && ctx.Done() != nil) {
		// A call whose result must be acted on when its caller has left
		// (an Obtain's attempt) goes through the sender, which waits for
		// the reply: here the client drops the connection at the deadline
		// and the reply with it.
		return nil, false, nil
	}
	b := c.batcherFor(ctx, call.Keys[0])
	b.mu.Lock()
	if b.gone || b.direct || b.busy || len(b.queue) > 0 {
		b.mu.Unlock()
		return nil, false, nil
	}
	b.direct = true
	b.mu.Unlock()

	reply, err = c.runNow(ctx, call.Script, call.Keys, call.Args...)
	if err != nil && ctxEnded(ctx) {
		// The client gave up at the context's deadline: report it as a
		// call in flight when its context ended, like a queued one.
		reply, err = nil, errInFlight(ctx)
	}

	c.endDirect(b)
	return reply, true, err
}

// endDirect ends a lone call's turn on b: the calls queued meanwhile go to
// a sender.
func (c *Client) endDirect(b *batcher) {
	b.mu.Lock()
	b.direct = false
	b.used = time.Now()
	start := len(b.queue) > 0 && !b.busy && !b.gone
	b.busy = b.busy || start
	b.mu.Unlock()
	if start {
		go c.sendQueue(b)
	}
}

// sendsDirect reports whether a call under ctx may run on its caller's
// goroutine: its context never ends, or the go-redis client applies its
// deadline to the socket (ContextTimeoutEnabled), so the call returns by it
// even when its server does not answer. (A cancellation before the
// deadline is then noticed when the server answers or the deadline passes,
// not at once.)
func (c *Client) sendsDirect(ctx context.Context) bool {
	if ctx.Done() == nil {
		return true
	}
	if !c.ctxDeadlines {
		return false
	}
	_, ok := ctx.Deadline()
	return ok
}

// shardKey names the batcher of a key: the master serving its slot on a
// cluster client, the slot on a ring (whose shards go-redis does not
// expose; a ring pipeline is split per shard anyway), the one shard of any
// other client.
type shardKey struct {
	node *redis.Client
	slot int
}

func (c *Client) batcherFor(ctx context.Context, key string) *batcher {
	var id shardKey
	switch r := c.rdb.(type) {
	case *redis.ClusterClient:
		// After the first load of the cluster's slot map this is a lookup.
		if n, err := r.MasterForKey(ctx, key); err == nil {
			id.node = n
		} else {
			id.slot = slot.Slot(key) + 1
		}
	case *redis.Ring:
		id.slot = slot.Slot(key) + 1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.batchers[id]
	if b == nil {
		if c.batchers == nil {
			c.batchers = map[shardKey]*batcher{}
		}
		if now := time.Now(); len(c.batchers) >= c.sweepAt || now.Sub(c.swept) >= c.batcherIdle {
			c.sweepBatchers(now)
			c.sweepAt = max(minSweep, 2*len(c.batchers))
			c.swept = now
		}
		b = &batcher{id: id}
		c.batchers[id] = b
	}
	return b
}

// minSweep is the number of batchers from which adding one sweeps the map.
const minSweep = 16

// sweepBatchers takes out of the map the batchers with nothing queued or
// in flight that were last used batcherIdle ago or more, so the map holds
// the shards in use and not every shard the Client ever saw. It runs when
// a batcher is added to a map that has doubled since the last sweep (at
// least minSweep), or batcherIdle after it, so the sweeps cost O(1) per
// batcher added, and the map holds at most minSweep batchers or twice as
// many as were in use at the last sweep. Called with c.mu held.
func (c *Client) sweepBatchers(now time.Time) {
	for id, b := range c.batchers {
		b.mu.Lock()
		if !b.busy && !b.direct && len(b.queue) == 0 && now.Sub(b.used) >= c.batcherIdle {
			b.gone = true
			delete(c.batchers, id)
		}
		b.mu.Unlock()
	}
}

// enqueue queues call on its shard's batcher, starting the shard's sender
// unless it runs, and returns the batcher. A batcher swept out of the map
// (gone) is not used again: the call goes to a new one.
func (c *Client) enqueue(ctx context.Context, call *batchCall) *batcher {
	for {
		b := c.batcherFor(ctx, call.Keys[0])
		b.mu.Lock()
		if b.gone {
			b.mu.Unlock()
			continue
		}
		b.queue = append(b.queue, call)
		// A caller sending directly hands the queue on when it is done.
		start := !b.direct && !b.busy
		b.busy = b.busy || start
		b.mu.Unlock()
		if start {
			go c.sendQueue(b)
		}
		return b
	}
}

// sendQueue is a shard's sender: it sends the queue, up to maxBatch calls
// per pipeline, until it is empty or a lone call is in flight on its
// caller's goroutine (which starts a sender for the calls queued behind it).
func (c *Client) sendQueue(b *batcher) {
	for {
		b.mu.Lock()
		n := min(len(b.queue), maxBatch)
		if n == 0 || b.direct {
			b.busy = false
			b.used = time.Now()
			b.mu.Unlock()
			return
		}
		calls := make([]*batchCall, n)
		copy(calls, b.queue)
		rest := copy(b.queue, b.queue[n:])
		clear(b.queue[rest:])
		b.queue = b.queue[:rest]
		for _, call := range calls {
			call.state = callSent
		}
		b.mu.Unlock()

		c.sendCalls(calls)

		var left []*batchCall
		b.mu.Lock()
		for _, call := range calls {
			if call.state == callAbandoned {
				if call.abandoned != nil {
					left = append(left, call)
				}
				continue
			}
			call.state = callFinished
			close(call.done)
		}
		b.mu.Unlock()
		for _, call := range left {
			// Its own goroutine: it may queue a call on this shard.
			go call.abandoned(call.reply, call.err)
		}
	}
}

// sendCalls runs calls, alone or as one pipeline, and sets each result.
func (c *Client) sendCalls(calls []*batchCall) {
	if len(calls) == 1 {
		call := calls[0]
		ctx := call.ctx
		if call.abandoned != nil {
			// Its reply must come back even after its caller left (see
			// pipelineContext).
			ctx = context.WithoutCancel(ctx)
		}
		call.reply, call.err = c.runNow(ctx, call.Script, call.Keys, call.Args...)
		return
	}
	// The pipeline carries several callers' calls: one caller's deadline
	// or cancellation must not fail the others. A client that honours
	// context deadlines still gives up on it at the latest of theirs.
	pctx, cancel := pipelineContext(calls)
	defer cancel()
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
}

// pipelineContext returns a context for a pipeline of calls: not cancelled
// by any one caller, with the latest of their deadlines when all have one.
// A call that must learn its result after its caller left (an Obtain, whose
// lock is released when won too late) gives the pipeline no deadline: on a
// client that applies a context's deadline to the socket, the deadline
// would drop the connection and the reply with it, and a lock the server
// granted would stay held, unreleased, for its whole TTL. The client's own
// read timeout still bounds the wait, and the callers have left at theirs.
func pipelineContext(calls []*batchCall) (context.Context, context.CancelFunc) {
	ctx := context.WithoutCancel(calls[0].ctx)
	var latest time.Time
	for _, call := range calls {
		d, ok := call.ctx.Deadline()
		if !ok || call.abandoned != nil {
			return ctx, func() {}
		}
		if d.After(latest) {
			latest = d
		}
	}
	return context.WithDeadline(ctx, latest)
}

// runCalls sends calls as one pipeline and sets each one's result. It
// returns the pipeline's error when no call got a reply.
func (c *Client) runCalls(ctx context.Context, calls []*batchCall) error {
	plain := make([]Call, len(calls))
	for i, call := range calls {
		plain[i] = call.Call
	}
	cmds, err := c.runPipelined(ctx, plain)
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
