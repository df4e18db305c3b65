package crossslot

import "github.com/redis/go-redis/v9"

type prefixed struct{ prefix string }

// A key that reassigns itself (key = prefix + key) is shown with its
// prefix once, then "…".
func (r prefixed) selfPrefixed(rdb *redis.Client, key string) {
	key = r.prefix + key
	key = r.prefix + key
	key = r.prefix + key
	key = r.prefix + key
	key = r.prefix + key
	rdb.Rename(ctx, key+":a", key+":b") // want `^RENAME keys r\.prefix \+ … \+ key \+ ":a" and r\.prefix \+ … \+ key \+ ":b" share no hash tag`
}

// A prefix written twice is shown as written.
func (r prefixed) twice(rdb *redis.Client, key string) {
	k := r.prefix + r.prefix + key
	rdb.Rename(ctx, k+":a", k+":b") // want `^RENAME keys r\.prefix \+ r\.prefix \+ key \+ ":a" and r\.prefix \+ r\.prefix \+ key \+ ":b" share no hash tag`
}
