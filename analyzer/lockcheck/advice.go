package lockcheck

import "github.com/slotlint/slotlint/analyzer/internal/redisapi"

// advice is how users of one client fix a lock finding, in its own terms:
// the one command that takes a lock with its TTL, the lock library that
// comes with the client (runtime's for go-redis), and how a script is
// made with it.
type advice struct {
	acquire string
	library string // "" when the client ships none
	script  string
	// watch is how the client runs an optimistic transaction.
	watch string
	// expireNX is how the client sends a command and EXPIRE NX as one
	// MULTI/EXEC; counter is the vetted fixed-window counter, or the
	// client's scripts.
	expireNX, counter string
}

var adviceFor = map[redisapi.Client]advice{
	redisapi.GoRedisClient: {
		acquire:  "SetNX(ctx, key, value, ttl), SET NX PX",
		library:  "runtime's Client.Obtain",
		script:   "a script",
		watch:    "WATCH with TxPipelined",
		expireNX: "one TxPipelined with ExpireNX (EXPIRE NX, Redis 7)",
		counter:  "runtime's Client.IncrWindow",
	},
	redisapi.RedigoClient: {
		acquire:  `Do("SET", key, token, "NX", "PX", ttlMillis)`,
		script:   "a redis.NewScript",
		watch:    "WATCH with MULTI/EXEC on the same connection",
		expireNX: "one MULTI/EXEC with EXPIRE NX (Redis 7) on the same connection",
		counter:  "a redis.NewScript",
	},
	redisapi.RueidisClient: {
		acquire:  "B().Set().Key(key).Value(token).Nx().Px(ttl).Build()",
		library:  "rueidislock",
		script:   "a rueidis.NewLuaScript",
		watch:    "WATCH with MULTI/EXEC on a dedicated connection (Dedicated)",
		expireNX: "one DoMulti of MULTI, the increment, EXPIRE NX (Redis 7) and EXEC",
		counter:  "a rueidis.NewLuaScript",
	},
	redisapi.ValkeyClient: {
		acquire:  "B().Set().Key(key).Value(token).Nx().Px(ttl).Build()",
		library:  "valkeylock",
		script:   "a valkey.NewLuaScript",
		watch:    "WATCH with MULTI/EXEC on a dedicated connection (Dedicated)",
		expireNX: "one DoMulti of MULTI, the increment, EXPIRE NX (Redis 7) and EXEC",
		counter:  "a valkey.NewLuaScript",
	},
}

// ttlAdvice ends an SL1301 message.
func ttlAdvice(c redisapi.Client) string {
	a := adviceFor[c]
	s := "set the TTL in the same command (" + a.acquire + ")"
	if a.library != "" {
		s += " or use " + a.library
	}
	return s
}

// releaseAdvice ends an SL1302 message; what the script must do differs
// between the two findings.
func releaseAdvice(c redisapi.Client, scriptDoes string) string {
	a := adviceFor[c]
	s := "release with "
	switch c {
	case redisapi.GoRedisClient:
		s += "runtime's Lock.Release (from Client.Obtain) or "
	default:
		if a.library != "" {
			s += a.library + " or "
		}
	}
	return s + a.script + " that " + scriptDoes
}

// counterAdvice ends an SL1305 message.
func counterAdvice(c redisapi.Client) string {
	a := adviceFor[c]
	return "send both in " + a.expireNX + ", so a lost TTL is set again by the next call, or use " + a.counter
}
