package runtime

import (
	"context"
	"crypto/sha1"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

//go:embed lua/*.lua lua/prelude/*.lua
var luaFiles embed.FS

// Script is one of the package's Lua scripts. Each runs one operation
// atomically and receives every key it touches in KEYS.
type Script struct {
	name string
	src  string
	sha  string
	form callForm // what RunPipelined accepts as its KEYS and ARGV
}

// Name returns the script's name: its file name without ".lua".
func (s *Script) Name() string { return s.name }

// Source returns the script's Lua source.
func (s *Script) Source() string { return s.src }

// SHA1 returns the digest EVALSHA refers to the script by.
func (s *Script) SHA1() string { return s.sha }

// includeLine starts the line that includes a prelude, in the form of
// BullMQ's include directives, which slotlint's Lua checker resolves too:
// the line `--- @include "prelude/fence"` is replaced with
// lua/prelude/fence.lua. Each script stays one text that Redis runs and
// slotlint checks (Source), with its shebang first, while the code the
// scripts share is written once.
const includeLine = `--- @include "`

func mustScript(name string, form callForm) *Script {
	src, err := loadScript(name)
	if err != nil {
		// The files are embedded at build time; a missing one is a build
		// defect that the package's tests catch.
		panic("runtime: " + err.Error())
	}
	sum := sha1.Sum([]byte(src))
	return &Script{name: name, src: src, sha: hex.EncodeToString(sum[:]), form: form}
}

// loadScript returns the source of lua/name.lua with its preludes included.
func loadScript(name string) (string, error) {
	file, err := luaFiles.ReadFile(path.Join("lua", name+".lua"))
	if err != nil {
		return "", fmt.Errorf("missing embedded script %s", name)
	}
	var b strings.Builder
	for line := range strings.Lines(string(file)) {
		inc, ok := strings.CutPrefix(strings.TrimRight(line, "\n"), includeLine)
		inc, closed := strings.CutSuffix(inc, `"`)
		if !ok || !closed {
			b.WriteString(line)
			continue
		}
		text, err := luaFiles.ReadFile(path.Join("lua", inc+".lua"))
		if err != nil {
			return "", fmt.Errorf("script %s includes a missing file %q", name, inc)
		}
		b.Write(text)
	}
	return b.String(), nil
}

var (
	obtainScript = mustScript("obtain", callForm{
		keys: []string{"lock", "fencing counter", "queue"}, keyCheck: lockKeysCheck,
		args: []argKind{argText, argMillis, argQueue, argMillis, argMillis}})
	releaseScript = mustScript("release", callForm{
		keys: []string{"lock", "fencing counter", "queue"}, keyCheck: lockKeysCheck,
		args: []argKind{argText, argMillis}})
	refreshScript = mustScript("refresh", callForm{
		keys: []string{"lock"},
		args: []argKind{argText, argMillis}})
	lockAndSetScript = mustScript("lock_and_set", callForm{
		keys: []string{"lock", "fencing counter", "state", "queue"}, keyCheck: lockAndSetKeys,
		args: []argKind{argText, argMillis, argField, argAny, argMillis, argQueue, argMillis, argMillis}})
	setStateScript = mustScript("set_state", callForm{
		keys: []string{"lock", "state"},
		args: []argKind{argText, argPositive, argField, argAny, argMillis}})
	maxUpdateScript = mustScript("max_update", callForm{
		keys: []string{"value", "dirty set"},
		args: []argKind{argInteger, argText}})
	decrementScript = mustScript("decrement", callForm{
		keys: []string{"counter"},
		args: []argKind{argDecrement}})
	issueOnceScript = mustScript("issue_once", callForm{
		keys: []string{"issued set"},
		args: []argKind{argText, argPositive}})
	countWindowScript = mustScript("count_window", callForm{
		keys: []string{"counter"},
		args: []argKind{argDecrement, argMillis}})
)

// Scripts returns the package's scripts, sorted by name.
func Scripts() []*Script {
	all := []*Script{obtainScript, releaseScript, refreshScript, lockAndSetScript,
		setStateScript, maxUpdateScript, decrementScript, issueOnceScript, countWindowScript}
	sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
	return all
}

func isNoScript(err error) bool {
	if err == nil {
		return false // HasErrorPrefix would allocate on every successful call
	}
	return errors.Is(err, redis.ErrNoScript) || redis.HasErrorPrefix(err, "NOSCRIPT")
}

// run is runOnce, sent again while the keys' slot is moving between
// masters (slotInMotion), until ctx ends or the wait for the move runs out.
func (c *Client) run(ctx context.Context, s *Script, keys []string, args ...any) (any, error) {
	start := time.Now()
	for attempt := 0; ; attempt++ {
		v, err := c.runOnce(ctx, s, keys, args...)
		if !slotInMotion(err) {
			return v, err
		}
		if !waitForMove(ctx, start, attempt) {
			return nil, movingError(err)
		}
	}
}

// runOnce is runNow bounded by ctx: it returns when ctx ends even if the server
// has not answered (go-redis only applies a context's deadline to the
// socket with Options.ContextTimeoutEnabled, and a paused server holds a
// call for the read timeout times the retries). The round trip then
// finishes on its own. When the client bounds the call by ctx itself
// (Client.sendsDirect) it runs on the caller's goroutine.
func (c *Client) runOnce(ctx context.Context, s *Script, keys []string, args ...any) (any, error) {
	if ctx.Err() != nil {
		return nil, errNotSent(ctx)
	}
	if c.sendsDirect(ctx) {
		v, err := c.runNow(ctx, s, keys, args...)
		if err != nil && ctxEnded(ctx) {
			return nil, errInFlight(ctx)
		}
		return v, err
	}
	type result struct {
		reply any
		err   error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := c.runNow(ctx, s, keys, args...)
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.reply, r.err
	case <-ctx.Done():
		select {
		case r := <-ch:
			return r.reply, r.err
		default:
			return nil, errInFlight(ctx)
		}
	}
}

// While a cluster moves a slot from one master to another (resharding,
// key by key with MIGRATE), a call on its keys may be refused before it
// runs: TRYAGAIN when some of its keys have moved and others not, ASK or
// MOVED when go-redis has used up its MaxRedirects (3) following them.
// Nothing ran, so the call is sent again, after a short wait that grows
// from 1 ms to 50 ms, until its context ends, or for moveWait when the
// context has no deadline. (A script stopped half-way by a key missing
// in a migrating slot, "non local key", is not sent again: its writes
// before that stay. The package's scripts never touch a key after
// deleting or emptying it, which is what makes a key missing mid-script.)
const moveWait = 2 * time.Second

// slotInMotion reports whether err is a cluster's refusal of a call whose
// slot is moving (see moveWait).
func slotInMotion(err error) bool {
	return err != nil && (redis.HasErrorPrefix(err, "TRYAGAIN ") || redis.HasErrorPrefix(err, "ASK ") ||
		redis.HasErrorPrefix(err, "MOVED "))
}

// waitForMove waits before attempt+1 of a call started at start, or
// reports false when ctx or the wait for the move ends first.
func waitForMove(ctx context.Context, start time.Time, attempt int) bool {
	d := min(time.Millisecond<<min(attempt, 6), 50*time.Millisecond)
	d = d/2 + rand.N(d/2+1)
	end := start.Add(moveWait)
	if dl, ok := ctx.Deadline(); ok {
		end = dl
	}
	if time.Until(end) < d {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// movingError is the error of a call that gave up while its slot moved.
func movingError(err error) error {
	return fmt.Errorf("the keys' slot was still moving between cluster masters when the call gave up: %w", err)
}

// runNow calls the script with EVALSHA and, when the server has no copy (a
// restart, a failover, SCRIPT FLUSH, a shard that never saw it), once more
// with EVAL, which also loads it. A cluster client routes both by the first
// key, so the script reaches whichever shard serves the keys' slot.
func (c *Client) runNow(ctx context.Context, s *Script, keys []string, args ...any) (any, error) {
	v, err := c.rdb.EvalSha(ctx, s.sha, keys, args...).Result()
	if isNoScript(err) {
		c.hooks.ScriptReloaded(s.name)
		v, err = c.rdb.Eval(ctx, s.src, keys, args...).Result()
	}
	if err != nil {
		return nil, scriptError(err)
	}
	return v, nil
}

// Call is one script invocation for RunPipelined.
type Call struct {
	Script *Script
	Keys   []string
	Args   []any
}

// pipeliner is what RunPipelined needs of a client: *redis.Client,
// *redis.ClusterClient and *redis.Ring all qualify.
type pipeliner interface {
	Pipeline() redis.Pipeliner
}

// RunPipelined sends the calls in one pipeline with EVALSHA and sends the
// ones a server answered with NOSCRIPT again, with EVAL, in a second
// pipeline. (go-redis's Script.Run cannot recover there: inside a pipeline
// the reply is only known after Exec.) A script that got NOSCRIPT did not
// run, so sending it again runs it exactly once. It returns one result per
// call, in order, with errors mapped as the package's operations map them.
//
// Each call must have the KEYS and ARGV its script documents (see the
// package documentation and Script.Source): the keys of one call share a
// slot (calls may go to different slots), the derived keys of a lock are
// FencingKey and WakeKey of its key, and every argument has the form the
// script reads. A malformed call fails the whole batch before any round
// trip with ErrInvalidArgument (ErrCrossSlot for keys in different slots)
// naming the call, rather than run and stop with a Lua error half-way.
func (c *Client) RunPipelined(ctx context.Context, calls []Call) ([]redis.Cmder, error) {
	if err := c.ready(); err != nil {
		return nil, err
	}
	for i, call := range calls {
		if err := call.check(); err != nil {
			return nil, fmt.Errorf("call %d: %w", i, err)
		}
	}
	return c.runPipelined(ctx, calls)
}

// runPipelined is RunPipelined for calls the package built itself.
//
// On a cluster the calls go in one pipeline per master, on that master's
// own connection, rather than through the cluster client's pipeline: when
// the first command of a node's batch is refused with TRYAGAIN (its slot
// is moving), go-redis v9.23.0 sends the whole batch again, so scripts that
// had run ran twice (an Obtain re-entered its own lock), and commands it
// had also sent to an ASK or MOVED target were read by two goroutines at
// once (TestFaultSlotMigration under -race). Here a call refused because
// its slot is moving did not run: it is sent again alone through the
// cluster client, which follows the redirection (resendMoving).
func (c *Client) runPipelined(ctx context.Context, calls []Call) ([]redis.Cmder, error) {
	p, ok := c.rdb.(pipeliner)
	if !ok {
		return nil, invalidArg("client %T cannot pipeline", c.rdb)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmds := make([]redis.Cmder, len(calls))
	reloads := &reloadReports{c: c}
	var err error
	if cc, ok := c.rdb.(*redis.ClusterClient); ok {
		err = c.pipelineByNode(ctx, cc, calls, cmds, reloads)
	} else {
		idx := make([]int, len(calls))
		for i := range idx {
			idx[i] = i
		}
		err = c.pipelineOn(ctx, p, calls, idx, cmds, reloads)
	}
	if err != nil && !anyReply(cmds) {
		return nil, err
	}
	if _, ok := c.rdb.(*redis.ClusterClient); ok {
		c.resendMoving(ctx, calls, cmds)
	}
	for _, cmd := range cmds {
		if err := cmd.Err(); err != nil {
			cmd.SetErr(scriptError(err))
		}
	}
	return cmds, nil
}

// pipelineOn sends calls[idx] in one pipeline of p with EVALSHA, and the
// ones a server answered with NOSCRIPT again, with EVAL, in a second. It
// sets cmds[idx] and returns the error of a pipeline that got no reply.
func (c *Client) pipelineOn(ctx context.Context, p pipeliner, calls []Call, idx []int, cmds []redis.Cmder, reloads *reloadReports) error {
	pipe := p.Pipeline()
	for _, i := range idx {
		call := calls[i]
		cmds[i] = pipe.EvalSha(ctx, call.Script.sha, call.Keys, call.Args...)
	}
	// Exec's error is the first failed command's; each command is looked at
	// below, so only a transport-level failure (no replies at all) matters.
	if _, err := pipe.Exec(ctx); err != nil && !anyReplyOf(cmds, idx) {
		return err
	}
	var again []int
	for _, i := range idx {
		if isNoScript(cmds[i].Err()) {
			again = append(again, i)
		}
	}
	if len(again) == 0 {
		return nil
	}
	pipe = p.Pipeline()
	for _, i := range again {
		call := calls[i]
		reloads.report(call.Script.name)
		cmds[i] = pipe.Eval(ctx, call.Script.src, call.Keys, call.Args...)
	}
	if _, err := pipe.Exec(ctx); err != nil && !anyReplyOf(cmds, again) {
		return err
	}
	return nil
}

// pipelineByNode sends the calls in one pipeline per master, at once, on
// the master's own client (see runPipelined). A call whose master is not
// known (no slot map yet) goes through the cluster client alone.
func (c *Client) pipelineByNode(ctx context.Context, cc *redis.ClusterClient, calls []Call, cmds []redis.Cmder, reloads *reloadReports) error {
	byNode := map[*redis.Client][]int{}
	var order []*redis.Client
	var alone []int
	for i, call := range calls {
		n, err := cc.MasterForKey(ctx, call.Keys[0])
		if err != nil {
			alone = append(alone, i)
			continue
		}
		if _, ok := byNode[n]; !ok {
			order = append(order, n)
		}
		byNode[n] = append(byNode[n], i)
	}
	errs := make([]error, len(order))
	var wg sync.WaitGroup
	for j, n := range order {
		if j == len(order)-1 {
			errs[j] = c.pipelineOn(ctx, n, calls, byNode[n], cmds, reloads)
			continue
		}
		wg.Go(func() { errs[j] = c.pipelineOn(ctx, n, calls, byNode[n], cmds, reloads) })
	}
	wg.Wait()
	for _, i := range alone {
		cmds[i] = c.evalAlone(ctx, calls[i])
	}
	return errors.Join(errs...)
}

// reloadReports reports each script sent again with EVAL once per
// runPipelined, however many masters answered NOSCRIPT for it.
type reloadReports struct {
	c    *Client
	mu   sync.Mutex
	done map[string]bool
}

func (r *reloadReports) report(script string) {
	r.mu.Lock()
	first := !r.done[script]
	if first {
		if r.done == nil {
			r.done = map[string]bool{}
		}
		r.done[script] = true
	}
	r.mu.Unlock()
	if first {
		r.c.hooks.ScriptReloaded(script)
	}
}

// resendMoving sends again, alone through the cluster client, each call a
// master refused because its slot is moving: it did not run, and the
// cluster client follows ASK, MOVED and TRYAGAIN for a lone command, and
// reloads its slot map.
func (c *Client) resendMoving(ctx context.Context, calls []Call, cmds []redis.Cmder) {
	for i, cmd := range cmds {
		if slotInMotion(cmd.Err()) {
			cmds[i] = c.evalAlone(ctx, calls[i])
		}
	}
}

// evalAlone runs one call through the client with runNow and returns its
// result as a command of a pipeline would hold it.
func (c *Client) evalAlone(ctx context.Context, call Call) redis.Cmder {
	cmd := redis.NewCmd(ctx, "evalsha", call.Script.sha, len(call.Keys))
	v, err := c.runNow(ctx, call.Script, call.Keys, call.Args...)
	cmd.SetVal(v)
	cmd.SetErr(err)
	return cmd
}

// anyReplyOf is anyReply for cmds[idx].
func anyReplyOf(cmds []redis.Cmder, idx []int) bool {
	sub := make([]redis.Cmder, len(idx))
	for j, i := range idx {
		sub[j] = cmds[i]
	}
	return anyReply(sub)
}

// anyReply reports whether at least one command got a reply from a server
// (a value or a Redis error), as opposed to a connection or context error.
func anyReply(cmds []redis.Cmder) bool {
	for _, cmd := range cmds {
		err := cmd.Err()
		var rerr redis.Error
		if err == nil || errors.As(err, &rerr) {
			return true
		}
	}
	return false
}

// Preload loads every script of the package on every server the client
// talks to: each master of a cluster, each shard of a ring. Without it the
// first call on each server loads the script through EVAL; preloading moves
// that cost to start-up and checks that scripting is allowed.
func (c *Client) Preload(ctx context.Context) error {
	if err := c.ready(); err != nil {
		return err
	}
	load := func(ctx context.Context, s redis.Scripter) error {
		for _, script := range Scripts() {
			sha, err := s.ScriptLoad(ctx, script.src).Result()
			if err != nil {
				return fmt.Errorf("runtime: loading script %s: %w", script.name, err)
			}
			if !strings.EqualFold(sha, script.sha) {
				return fmt.Errorf("runtime: server digest %s of script %s differs from %s", sha, script.name, script.sha)
			}
		}
		return nil
	}
	switch r := c.rdb.(type) {
	case *redis.ClusterClient:
		return r.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error { return load(ctx, n) })
	case *redis.Ring:
		return r.ForEachShard(ctx, func(ctx context.Context, n *redis.Client) error { return load(ctx, n) })
	default:
		return load(ctx, c.rdb)
	}
}
