// Package clientpaths names the Redis client libraries slotlint reads, by
// import path, and says which packages are a client's own. It imports
// nothing of slotlint: keyexpr (which exports no facts for a client's own
// packages) and redisapi (whose front ends read the clients) share it.
package clientpaths

import "strings"

const (
	// GoRedis is the import path of go-redis v9.
	GoRedis = "github.com/redis/go-redis/v9"
	// GoRedisV8 is the import path of go-redis v8, whose API is v9's for
	// every method both have.
	GoRedisV8 = "github.com/go-redis/redis/v8"
	// Redigo is the import path of redigo's client package.
	Redigo = "github.com/gomodule/redigo/redis"
	// Rueidis and Valkey are the import paths of rueidis and valkey-go: one
	// client generated from the same sources, with the same command
	// builder.
	Rueidis = "github.com/redis/rueidis"
	Valkey  = "github.com/valkey-io/valkey-go"
	// RueidisCompat is rueidis's adapter with go-redis's API. valkey-go
	// v1.0.79 publishes no such adapter.
	RueidisCompat = Rueidis + "/rueidiscompat"
	// Runtime is slotlint's runtime, read as one more client.
	Runtime = "github.com/slotlint/slotlint/runtime"
)

var (
	// GoRedisPaths are the packages with go-redis v9's API.
	GoRedisPaths = []string{GoRedis, GoRedisV8, RueidisCompat}
	// RedigoPaths are redigo's client packages.
	RedigoPaths = []string{Redigo}
	// RueidisPaths are the client packages of rueidis and valkey-go.
	RueidisPaths = []string{Rueidis, Valkey}
	// RuntimePaths is slotlint's runtime.
	RuntimePaths = []string{Runtime}
)

// IsClientPackage reports whether path is a package of a client library
// itself (not a package shipped beside it that only uses it). Rules do not
// check client packages, and their string functions build no user keys.
// The runtime is checked itself (its calls of go-redis), so none of its
// packages counts.
func IsClientPackage(path string) bool {
	return InsideAny(path, GoRedisPaths) || InsideAny(path, RedigoPaths) || RueidisOwn(path)
}

// RueidisOwn reports whether path is rueidis or valkey-go itself: the root
// package, its internal packages and its go-redis adapter. rueidislock,
// rueidisaside and valkeylock only use the client, so they are checked.
func RueidisOwn(path string) bool {
	for _, r := range RueidisPaths {
		if path == r || strings.HasPrefix(path, r+"/internal/") ||
			path == r+"/rueidiscompat" || path == r+"/valkeycompat" {
			return true
		}
	}
	return false
}

// InsideAny reports whether path is one of roots or a package below one.
func InsideAny(path string, roots []string) bool {
	for _, r := range roots {
		if path == r || strings.HasPrefix(path, r+"/") {
			return true
		}
	}
	return false
}
