package runtime

import (
	"context"
	"crypto/sha1"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

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
)

// Scripts returns the package's scripts, sorted by name.
func Scripts() []*Script {
	all := []*Script{obtainScript, releaseScript, refreshScript, lockAndSetScript,
		setStateScript, maxUpdateScript, decrementScript, issueOnceScript}
	sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
	return all
}

func isNoScript(err error) bool {
	if err == nil {
		return false // HasErrorPrefix would allocate on every successful call
	}
	return errors.Is(err, redis.ErrNoScript) || redis.HasErrorPrefix(err, "NOSCRIPT")
}

// run is runNow bounded by ctx: it returns when ctx ends even if the server
// has not answered (go-redis only applies a context's deadline to the
// socket with Options.ContextTimeoutEnabled, and a paused server holds a
// call for the read timeout times the retries). The round trip then
// finishes on its own. When the client bounds the call by ctx itself
// (Client.sendsDirect) it runs on the caller's goroutine.
func (c *Client) run(ctx context.Context, s *Script, keys []string, args ...any) (any, error) {
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
func (c *Client) runPipelined(ctx context.Context, calls []Call) ([]redis.Cmder, error) {
	p, ok := c.rdb.(pipeliner)
	if !ok {
		return nil, invalidArg("client %T cannot pipeline", c.rdb)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmds := make([]redis.Cmder, len(calls))
	pipe := p.Pipeline()
	for i, call := range calls {
		cmds[i] = pipe.EvalSha(ctx, call.Script.sha, call.Keys, call.Args...)
	}
	// Exec's error is the first failed command's; each command is looked at
	// below, so only a transport-level failure (no replies at all) matters.
	if _, err := pipe.Exec(ctx); err != nil && !anyReply(cmds) {
		return nil, err
	}
	var again []int
	for i, cmd := range cmds {
		if isNoScript(cmd.Err()) {
			again = append(again, i)
		}
	}
	if len(again) > 0 {
		reloaded := map[string]bool{}
		pipe := p.Pipeline()
		for _, i := range again {
			call := calls[i]
			if !reloaded[call.Script.name] {
				reloaded[call.Script.name] = true
				c.hooks.ScriptReloaded(call.Script.name)
			}
			cmds[i] = pipe.Eval(ctx, call.Script.src, call.Keys, call.Args...)
		}
		if _, err := pipe.Exec(ctx); err != nil && !anyReply(cmds) {
			return nil, err
		}
	}
	for _, cmd := range cmds {
		if err := cmd.Err(); err != nil {
			cmd.SetErr(scriptError(err))
		}
	}
	return cmds, nil
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
