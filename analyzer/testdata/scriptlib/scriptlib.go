// Package scriptlib exports scripts that other packages run.
package scriptlib

import (
	_ "embed"

	"github.com/redis/go-redis/v9"
)

// Touch sets a key next to the one it is given.
var Touch = redis.NewScript(`return redis.call("SET", KEYS[1] .. ":touched", ARGV[1])`)

// MoveSrc is embedded text that callers wrap in their own script.
//
//go:embed lua/move.lua
var MoveSrc string

// Move runs the embedded text.
var Move = redis.NewScript(MoveSrc)

// Several is given two scripts: which one runs is not known.
var Several = redis.NewScript(`return redis.call("GET", KEYS[1])`)

func init() { Several = redis.NewScript(`return redis.call("GET", KEYS[2])`) }
