// Package cgo mixes cgo with go-redis calls.
package cgo

/*
static int answer(void) { return 42; }
*/
import "C"

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"
)

func Answer(ctx context.Context, rdb *redis.Client) {
	n := int(C.answer())
	rdb.MGet(ctx, "q:"+strconv.Itoa(n), "r:"+strconv.Itoa(n))
}
