package runtime

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// MaxUpdate sets the integer at key to max(current, value) and, only when
// it rose, adds member to the set dirtySet, in one script. It reports whether
// the value rose. key and dirtySet must share a slot (ErrCrossSlot); a key
// that holds something other than an integer is ErrWrongType, with nothing
// written, and so is a dirtySet of another type than a set when the value
// would rise (when it does not, the set is not touched). A missing key counts as lower than any value. The key's TTL, if
// any, is kept.
//
// Concurrent calls through one Client share round trips per shard: a call
// made while another to the same master is in flight waits for it and goes
// out with the other calls that arrived meanwhile in one pipeline (NOSCRIPT recovered as in RunPipelined).
// Each call still runs as its own atomic script with its own result, except
// that queued calls of one key, dirty set and member are folded into the one
// of highest value: it runs, and the others return false, as they would
// have run right after it (the calls are all in flight at once, so Redis
// could have run them in that order). A call returns when its context ends,
// whatever the shard: taken out of the queue and never sent if it was still
// queued, otherwise with its pipeline left to finish on its own (the script
// may then still run). The error wraps the context's.
//
// MaxTable picks keys and sharded dirty sets for whole tables of such
// values.
func (c *Client) MaxUpdate(ctx context.Context, key, dirtySet, member string, value int64) (rose bool, err error) {
	if err := c.ready(); err != nil {
		return false, err
	}
	if member == "" {
		return false, invalidArg("empty dirty-set member")
	}
	if err := SameSlot(key, dirtySet); err != nil {
		return false, err
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	reply, err := c.runBatchedCall(ctx, &batchCall{
		Call: Call{Script: maxUpdateScript, Keys: []string{key, dirtySet}, Args: []any{value, member}},
		max:  &maxUpdateArgs{key: key, dirtySet: dirtySet, member: member, value: value},
	})
	if err != nil {
		return false, fmt.Errorf("max-updating %q: %w", key, err)
	}
	return parseRose(reply)
}

func parseRose(reply any) (bool, error) {
	n, err := parseInt(reply)
	if err != nil || (n != 0 && n != 1) {
		return false, fmt.Errorf("runtime: unexpected max_update reply %v", reply)
	}
	return n == 1, nil
}

// MaxTable is a family of integer values kept at their maximum, such as the
// last-read position per item, written back to a database in batches. Each
// id hashes to one of Shards shards (Shard); a shard's values and its dirty
// set share a hash tag, so every MaxUpdate touches one slot while the table
// spreads over Shards slots of the cluster.
//
// Client.Update raises one id's value and Client.UpdateMany many in one
// pipeline; Client.Drain hands the dirty ids with their values to a write
// function. To call MaxUpdate (or max_update in RunPipelined) directly, pass
// ValueKey(id), DirtyKey(Shard(id)) and id as the member:
//
//	shard, err := t.Shard(id)
//	value, err := t.ValueKey(id)
//	dirty, err := t.DirtyKey(shard)
//	rose, err := c.MaxUpdate(ctx, value, dirty, id, v)
//
// A MaxTable is a plain value; its methods and the operations taking it
// check it (Name non-empty without braces, Shards in 1..16384) and fail with
// ErrInvalidArgument otherwise.
type MaxTable struct {
	// Name prefixes every key of the table; no braces.
	Name string
	// Shards is the number of dirty sets, 1..16384; a few per cluster
	// master (e.g. 64) spreads the load.
	Shards int
}

func (t MaxTable) check() error {
	if t.Name == "" || strings.ContainsAny(t.Name, "{}") {
		return invalidArg("table name %q is empty or has braces", t.Name)
	}
	if t.Shards < 1 || t.Shards > 16384 {
		return invalidArg("table %q has %d shards, not 1..16384", t.Name, t.Shards)
	}
	return nil
}

// shard returns id's shard; t must have passed check.
func (t MaxTable) shard(id string) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(t.Shards))
}

func (t MaxTable) valueKey(id string, shard int) string {
	return Key(t.Name, strconv.Itoa(shard), "v", id)
}

func (t MaxTable) dirtyKey(shard int) string {
	return Key(t.Name, strconv.Itoa(shard), "dirty")
}

// Shard returns the shard id lives in, 0..Shards-1: its value key and the
// dirty set that marks it are ValueKey(id) and DirtyKey(Shard(id)), for
// calling MaxUpdate or RunPipelined directly. The shard is the FNV-1a hash
// of id modulo Shards, so it changes when Shards does. A table with an
// empty or braced Name or Shards outside 1..16384, or an empty id, is
// ErrInvalidArgument.
func (t MaxTable) Shard(id string) (int, error) {
	if err := t.checkID(id); err != nil {
		return 0, err
	}
	return t.shard(id), nil
}

// ValueKey returns the key that holds id's value: Name:{shard}:v:id. It
// fails like Shard.
func (t MaxTable) ValueKey(id string) (string, error) {
	if err := t.checkID(id); err != nil {
		return "", err
	}
	return t.valueKey(id, t.shard(id)), nil
}

// DirtyKey returns the key of shard's dirty set: Name:{shard}:dirty. A
// shard outside 0..Shards-1 is ErrInvalidArgument, as is a table Shard
// rejects.
func (t MaxTable) DirtyKey(shard int) (string, error) {
	if err := t.check(); err != nil {
		return "", err
	}
	if shard < 0 || shard >= t.Shards {
		return "", invalidArg("table %q has no shard %d (0..%d)", t.Name, shard, t.Shards-1)
	}
	return t.dirtyKey(shard), nil
}

func (t MaxTable) checkID(id string) error {
	if err := t.check(); err != nil {
		return err
	}
	if id == "" {
		return invalidArg("empty id")
	}
	return nil
}

// Update raises id's value to value if it is higher and marks id dirty when
// it rose.
func (c *Client) Update(ctx context.Context, t MaxTable, id string, value int64) (rose bool, err error) {
	if err := c.ready(); err != nil {
		return false, err
	}
	if err := t.checkID(id); err != nil {
		return false, err
	}
	shard := t.shard(id)
	return c.MaxUpdate(ctx, t.valueKey(id, shard), t.dirtyKey(shard), id, value)
}

// DirtyValue is an id of a MaxTable with its value.
type DirtyValue struct {
	ID    string
	Value int64
}

// UpdateMany is Update for many ids in one pipeline (NOSCRIPT recovered as
// in RunPipelined). rose[i] tells whether updates[i] raised its value.
func (c *Client) UpdateMany(ctx context.Context, t MaxTable, updates []DirtyValue) (rose []bool, err error) {
	if err := c.ready(); err != nil {
		return nil, err
	}
	if err := t.check(); err != nil {
		return nil, err
	}
	calls := make([]Call, len(updates))
	for i, u := range updates {
		if u.ID == "" {
			return nil, invalidArg("update %d has an empty id", i)
		}
		shard := t.shard(u.ID)
		calls[i] = Call{
			Script: maxUpdateScript,
			Keys:   []string{t.valueKey(u.ID, shard), t.dirtyKey(shard)},
			Args:   []any{u.Value, u.ID},
		}
	}
	cmds, err := c.runPipelined(ctx, calls)
	if err != nil {
		return nil, err
	}
	rose = make([]bool, len(cmds))
	var errs []error
	for i, cmd := range cmds {
		if err := cmd.Err(); err != nil {
			errs = append(errs, fmt.Errorf("update %d (%q): %w", i, updates[i].ID, err))
			continue
		}
		if rose[i], err = parseRose(cmd.(*redis.Cmd).Val()); err != nil {
			errs = append(errs, err)
		}
	}
	return rose, errors.Join(errs...)
}

// Drain pops the dirty ids of every shard of t, up to batch at a time with
// SPOP, reads their current values and passes them to write. Delivery is at
// least once: when write fails, the batch's ids are put back into their
// dirty set and Drain returns the error. write may see a value that is
// newer than the update that marked it (a later update marks it again, so it
// is also seen again); the store must therefore only ever raise the value,
// e.g. with a conditional UPDATE (see the package documentation). It returns
// the number of values written.
func (c *Client) Drain(ctx context.Context, t MaxTable, batch int, write func(context.Context, []DirtyValue) error) (int, error) {
	if err := c.ready(); err != nil {
		return 0, err
	}
	if err := t.check(); err != nil {
		return 0, err
	}
	if batch < 1 {
		return 0, invalidArg("batch %d is not positive", batch)
	}
	if write == nil {
		return 0, invalidArg("nil write function")
	}
	rdb, ok := c.rdb.(redis.Cmdable)
	if !ok {
		return 0, invalidArg("client %T cannot run SPOP", c.rdb)
	}
	written := 0
	for shard := range t.Shards {
		for {
			if err := ctx.Err(); err != nil {
				return written, err
			}
			dirty := t.dirtyKey(shard)
			ids, err := rdb.SPopN(ctx, dirty, int64(batch)).Result()
			if err != nil {
				if redis.HasErrorPrefix(err, "WRONGTYPE") {
					err = fmt.Errorf("%w: dirty set %q", ErrWrongType, dirty)
				}
				return written, fmt.Errorf("draining %q: %w", dirty, err)
			}
			if len(ids) == 0 {
				break
			}
			values, err := c.readValues(ctx, rdb, t, ids)
			if err == nil {
				err = write(ctx, values)
			}
			if err != nil {
				members := make([]any, len(ids))
				for i, id := range ids {
					members[i] = id
				}
				// A fresh context: the caller's may be the reason write
				// failed, and the ids must not be lost.
				if rerr := rdb.SAdd(context.WithoutCancel(ctx), dirty, members...).Err(); rerr != nil {
					return written, fmt.Errorf("draining %q: %w (and putting %d ids back failed: %v)", dirty, err, len(ids), rerr)
				}
				return written, fmt.Errorf("draining %q: %w", dirty, err)
			}
			written += len(values)
			if len(ids) < batch {
				break
			}
		}
	}
	return written, nil
}

// readValues reads the values of ids, all of one shard, with one MGET.
func (c *Client) readValues(ctx context.Context, rdb redis.Cmdable, t MaxTable, ids []string) ([]DirtyValue, error) {
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = t.valueKey(id, t.shard(id))
	}
	raw, err := rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, err
	}
	out := make([]DirtyValue, 0, len(ids))
	for i, v := range raw {
		s, ok := v.(string)
		if !ok {
			continue // expired or deleted since it was marked
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: %q holds %q", ErrWrongType, keys[i], s)
		}
		out = append(out, DirtyValue{ID: ids[i], Value: n})
	}
	return out, nil
}
