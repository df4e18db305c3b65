package crossslot

import (
	"fmt"

	"github.com/redis/go-redis/v9"
)

// fmt prints a value whose type has a String or Error method through that
// method (a Format method, for every verb): the key holds the method's
// text, not the value's own, so neither is taken for the key's text.

// region's String wraps it in a hash tag: "a:{eu}" and "b:{eu}" share a
// slot, while "a:eu" and "b:eu" would not.
type region string

func (r region) String() string { return "{" + string(r) + "}" }

const home region = "eu"

// zone has no method: fmt prints its text.
type zone string

const away zone = "us"

type failure string

func (f failure) Error() string { return "{" + string(f) + "}" }

func printedByMethod(rdb redis.UniversalClient, r region) {
	rdb.MGet(ctx, fmt.Sprintf("a:%s", home), fmt.Sprintf("b:%v", home)) // want `MGET keys "a:" \+ home and "b:" \+ home share no hash tag`
	rdb.MGet(ctx, fmt.Sprintf("a:%s", away), fmt.Sprintf("b:%s", away)) // want `MGET keys "a:us" \(slot \d+\) and "b:us" \(slot \d+\) are in different slots`
	rdb.MGet(ctx, fmt.Sprint("a:", r), fmt.Sprintf("b:%s", r))          // want `MGET keys "a:" \+ r and "b:" \+ r share no hash tag`
	rdb.MGet(ctx, fmt.Sprintf("a:%v", failure("x")), "b:x")             // want `MGET keys "a:" \+ failure\("x"\) and "b:x" \(slot \d+\) share no hash tag`
}
