package strictprefix

import (
	"fmt"

	"github.com/redis/go-redis/v9"
)

// level prints its name with %v and %s (its String method), its number
// with %d.
type level int

func (l level) String() string { return "{level}" }

// shade prints what its Format method writes, whatever the verb.
type shade int

func (s shade) Format(f fmt.State, verb rune) { fmt.Fprint(f, "{shade}") }

// A number printed through its type's method is text of any shape: a
// brace in it would move the tag ("{level}:{id}" hashes "level").
func printed(rdb *redis.Client, id string, lv level, sh shade) {
	rdb.Get(ctx, fmt.Sprintf("%v:{%s}:level", lv, id))  // want `key lv \+ ":\{" \+ id \+ "\}:level" has text of unknown value \(lv\) before its hash tag`
	rdb.Get(ctx, fmt.Sprintf("%d:{%s}:meta", lv, id))   // %d prints the number: no brace
	rdb.Get(ctx, fmt.Sprintf("%d:{%s}:shaded", sh, id)) // want `key sh \+ ":\{" \+ id \+ "\}:shaded" has text of unknown value \(sh\) before its hash tag`
}
