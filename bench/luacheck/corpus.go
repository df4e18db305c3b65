// Package luacheckbench compares slotlint's Lua checker with Debian's
// luacheck on a corpus of generated Redis scripts.
package luacheckbench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// families are the shapes of scripts Redis users write: locks, limiters,
// queues, counters, caches, leaderboards, sessions, streams. Each is the
// body of a local helper; placeholders are filled per script so no two
// scripts are the same text. Some carry the mistakes the checker looks
// for, as real code bases do.
var families = []string{
	// lock acquire with owner token
	`local key, owner, ttl = KEYS[@K1], ARGV[@A1], tonumber(ARGV[@A2])
if redis.call('SET', key, owner, 'NX', 'PX', ttl) then
  return 1
end
if redis.call('GET', key) == owner then
  redis.call('PEXPIRE', key, ttl)
  return 1
end
return 0`,
	// lock release with owner check
	`local current = redis.call('GET', KEYS[@K1])
if not current then
  return 0
end
if current ~= ARGV[@A1] then
  return -1
end
redis.call('DEL', KEYS[@K1])
return 1`,
	// reentrant lock
	`local lockKey, owner = KEYS[@K1], ARGV[@A1]
local ttl = tonumber(ARGV[@A2]) or @TTL
if redis.call('EXISTS', lockKey) == 0 or redis.call('HEXISTS', lockKey, owner) == 1 then
  local depth = redis.call('HINCRBY', lockKey, owner, 1)
  redis.call('PEXPIRE', lockKey, ttl)
  return depth
end
return -redis.call('PTTL', lockKey)`,
	// fixed window rate limiter (with a global stats counter: LUA201)
	`local limit = tonumber(ARGV[@A1]) or @N
local window = tonumber(ARGV[@A2]) or @TTL
local current = redis.call('INCR', KEYS[@K1])
if current == 1 then
  redis.call('EXPIRE', KEYS[@K1], window)
end
redis.call('INCR', '@NAME:stats:requests')
if current > limit then
  return 0
end
return limit - current`,
	// sliding window log
	`local now = tonumber(ARGV[@A1])
local window = tonumber(ARGV[@A2])
local limit = @N
redis.call('ZREMRANGEBYSCORE', KEYS[@K1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[@K1])
if count < limit then
  redis.call('ZADD', KEYS[@K1], now, ARGV[@A3])
  redis.call('PEXPIRE', KEYS[@K1], window)
  return 1
end
return 0`,
	// token bucket
	`local rate = tonumber(ARGV[@A1])
local capacity = tonumber(ARGV[@A2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[@K1], 'tokens', 'ts')
local tokens = tonumber(state[1]) or capacity
local ts = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + (now - ts) * rate / 1000)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[@K1], 'tokens', tokens, 'ts', now)
redis.call('PEXPIRE', KEYS[@K1], @TTL)
return allowed`,
	// enqueue with job hash built from the id (LUA201)
	`local rcall = redis.call
local id = ARGV[@A1]
local jobKey = '@NAME:job:' .. id
rcall('HSET', jobKey, 'data', ARGV[@A2], 'attempts', 0)
rcall('LPUSH', KEYS[@K1], id)
rcall('PUBLISH', '@NAME:events', id)
return id`,
	// dequeue into a processing list, bounded
	`local moved = {}
for i = 1, @N do
  local job = redis.call('LMOVE', KEYS[@K1], KEYS[@K2], 'RIGHT', 'LEFT')
  if not job then break end
  moved[#moved + 1] = job
end
return moved`,
	// delayed job promotion with LIMIT
	`local due = redis.call('ZRANGEBYSCORE', KEYS[@K1], '-inf', ARGV[@A1], 'LIMIT', 0, @N)
for _, id in ipairs(due) do
  redis.call('ZREM', KEYS[@K1], id)
  redis.call('LPUSH', KEYS[@K2], id)
end
return #due`,
	// retry with derived key (LUA202)
	`local attemptsKey = KEYS[@K1] .. ':attempts'
local attempts = redis.call('INCR', attemptsKey)
if attempts > @N then
  redis.call('LPUSH', KEYS[@K2], ARGV[@A1])
  redis.call('DEL', attemptsKey)
  return -1
end
local backoff = math.min(@TTL * 2 ^ attempts, 3600000)
redis.call('ZADD', KEYS[@K1], tonumber(ARGV[@A2]) + backoff, ARGV[@A1])
return attempts`,
	// monotonic max
	`local cur = tonumber(redis.call('GET', KEYS[@K1]))
local v = tonumber(ARGV[@A1])
if v == nil then
  return redis.error_reply('not a number')
end
if cur == nil or v > cur then
  redis.call('SET', KEYS[@K1], ARGV[@A1])
  return 1
end
return 0`,
	// capped counter with a nil compare (LUA303)
	`local value = redis.call('GET', KEYS[@K1])
if value == nil then
  redis.call('SET', KEYS[@K1], 0)
end
local n = redis.call('INCRBY', KEYS[@K1], ARGV[@A1])
if n > @N then
  redis.call('SET', KEYS[@K1], @N)
  return @N
end
return n`,
	// cache get-or-set with stampede lock
	`local cached = redis.call('GET', KEYS[@K1])
if cached then
  return cached
end
if redis.call('SET', KEYS[@K2], ARGV[@A1], 'NX', 'PX', @TTL) then
  return false
end
return redis.call('PTTL', KEYS[@K2])`,
	// leaderboard
	`redis.call('ZINCRBY', KEYS[@K1], ARGV[@A1], ARGV[@A2])
local top = redis.call('ZREVRANGE', KEYS[@K1], 0, @N - 1, 'WITHSCORES')
local rank = redis.call('ZREVRANK', KEYS[@K1], ARGV[@A2])
return {rank, top}`,
	// session touch with a whole-hash read (LUA103)
	`local session = redis.call('HGETALL', KEYS[@K1])
if #session == 0 then
  return false
end
redis.call('HSET', KEYS[@K1], 'seen', ARGV[@A1])
redis.call('PEXPIRE', KEYS[@K1], @TTL)
return session`,
	// stream append and trim
	`local id = redis.call('XADD', KEYS[@K1], 'MAXLEN', '~', @N, '*', 'payload', ARGV[@A1])
redis.call('PEXPIRE', KEYS[@K1], @TTL)
return id`,
	// JSON payload
	`local payload = cjson.decode(ARGV[@A1])
if type(payload) ~= 'table' or not payload.id then
  return redis.error_reply('bad payload')
end
redis.call('HSET', KEYS[@K1], 'payload', ARGV[@A1], 'priority', payload.priority or 0)
redis.call('ZADD', KEYS[@K2], payload.priority or 0, payload.id)
return cjson.encode({id = payload.id})`,
	// bounded SSCAN batch
	`local cursor = ARGV[@A1]
local removed = 0
local rounds = 0
repeat
  local res = redis.call('SSCAN', KEYS[@K1], cursor, 'COUNT', @N)
  cursor = res[1]
  for _, member in ipairs(res[2]) do
    if redis.call('ZSCORE', KEYS[@K2], member) == false then
      redis.call('SREM', KEYS[@K1], member)
      removed = removed + 1
    end
  end
  rounds = rounds + 1
until cursor == '0' or rounds >= 10
return {cursor, removed}`,
	// unbounded move loop (LUA102)
	`local count = tonumber(ARGV[@A1])
for i = 1, count do
  redis.call('RPOPLPUSH', KEYS[@K1], KEYS[@K2])
end
return count`,
}

var names = []string{"bull", "queue", "jobs", "lock", "rl", "cache", "lb", "sess", "stream", "orders", "users", "billing"}

// Generate writes n scripts into dir and returns their paths and total size.
func Generate(dir string, n int, seed uint64) ([]string, int64, error) {
	r := rand.New(rand.NewPCG(seed, 1))
	var paths []string
	var total int64
	for i := range n {
		var b strings.Builder
		name := names[r.IntN(len(names))]
		fmt.Fprintf(&b, "-- %s script %d: generated benchmark corpus\n", name, i)
		b.WriteString("-- KEYS and ARGV are documented per helper below\n\n")
		steps := 1 + r.IntN(4)
		for s := 1; s <= steps; s++ {
			body := families[r.IntN(len(families))]
			body = strings.NewReplacer(
				"@K1", fmt.Sprint(s), "@K2", fmt.Sprint(s+1),
				"@A1", fmt.Sprint(2*s-1), "@A2", fmt.Sprint(2*s), "@A3", fmt.Sprint(2*s+1),
				"@N", fmt.Sprint(10+r.IntN(990)), "@TTL", fmt.Sprint(1000*(1+r.IntN(60))),
				"@NAME", name,
			).Replace(body)
			fmt.Fprintf(&b, "-- step %d\nlocal function step%d()\n", s, s)
			for _, line := range strings.Split(body, "\n") {
				b.WriteString("  " + line + "\n")
			}
			b.WriteString("end\n\n")
		}
		b.WriteString("local results = {}\n")
		for s := 1; s <= steps; s++ {
			fmt.Fprintf(&b, "results[%d] = step%d()\n", s, s)
		}
		b.WriteString("return results\n")
		path := filepath.Join(dir, fmt.Sprintf("%s-%03d.lua", name, i))
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			return nil, 0, err
		}
		paths = append(paths, path)
		total += int64(b.Len())
	}
	return paths, total, nil
}
