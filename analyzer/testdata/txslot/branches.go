package txslot

import (
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// Commands in branches that exclude each other never share a run, so
// they never share a transaction. In the image of a token store that
// stores an authorization code or, in the other branch, an access token,
// a refresh token and the token's data, each under its own key.
type tokenInfo struct{ code, access, refresh string }

func storeToken(rdb redis.UniversalClient, ns string, info tokenInfo, data []byte, id string) {
	pipe := rdb.TxPipeline()
	if info.code != "" {
		pipe.Set(ctx, ns+info.code, data, time.Minute)
	} else {
		if info.refresh != "" {
			pipe.Set(ctx, ns+info.refresh, id, time.Hour)
		}
		pipe.Set(ctx, ns+info.access, id, time.Hour) // want `TxPipeline transaction keys ns \+ info.refresh and ns \+ info.access share no hash tag`
		pipe.Set(ctx, ns+id, data, time.Hour)
	}
	pipe.Exec(ctx)
}

// Only one of the two branches runs: nothing to report.
func eitherBranch(rdb *redis.ClusterClient, id string, admin bool) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if admin {
			p.Incr(ctx, "admins:"+id)
		} else {
			p.Incr(ctx, "users:"+id)
		}
		return nil
	})
}

// A switch without fallthrough runs one case; a return ends the run.
func oneCase(rdb *redis.ClusterClient, id string, kind int) error {
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		switch kind {
		case 0:
			p.Set(ctx, "a:"+id, 1, 0)
		case 1:
			p.Set(ctx, "b:"+id, 1, 0)
		default:
			p.Set(ctx, "c:"+id, 1, 0)
		}
		return nil
	})
	if err != nil {
		return err
	}
	_, err = rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if kind == 0 {
			p.Set(ctx, "first:"+id, 1, 0)
			return nil
		}
		p.Set(ctx, "second:"+id, 1, 0)
		return nil
	})
	return err
}

// Still one run: a loop takes either branch on each pass, an if without
// a return lets both run, a fallthrough runs the next case, and a break
// can skip the return.
func bothRun(rdb *redis.ClusterClient, ids []string, owner string, kind int) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range ids {
			if id == "" {
				p.Incr(ctx, "blank:"+owner)
			} else {
				p.Incr(ctx, "named:"+owner) // want `TxPipelined transaction keys "blank:" \+ owner and "named:" \+ owner share no hash tag`
			}
		}
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if kind == 0 {
			p.Set(ctx, "maybe:"+owner, 1, 0)
		}
		p.Set(ctx, "always:"+owner, 1, 0) // want `TxPipelined transaction keys "maybe:" \+ owner and "always:" \+ owner share no hash tag`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		switch kind {
		case 0:
			p.Set(ctx, "zero:"+owner, 1, 0)
			fallthrough
		case 1:
			p.Set(ctx, "one:"+owner, 1, 0) // want `TxPipelined transaction keys "zero:" \+ owner and "one:" \+ owner share no hash tag`
		}
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		switch kind {
		case 0:
			p.Set(ctx, "left:"+owner, 1, 0)
			if len(ids) > 1 {
				break
			}
			return nil
		}
		p.Set(ctx, "right:"+owner, 1, 0) // want `TxPipelined transaction keys "left:" \+ owner and "right:" \+ owner share no hash tag`
		return nil
	})
	// A helper's commands are queued where it is called: in one branch
	// here, so apart from the other's; at the top there, so in every run.
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if kind == 0 {
			queueAudit(p, owner)
		} else {
			p.Set(ctx, "plain:"+owner, 1, 0)
		}
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		queueAudit(p, owner) // want `TxPipelined transaction keys "plain:" \+ owner and "audit:" \+ owner share no hash tag`
		if kind == 0 {
			p.Set(ctx, "plain:"+owner, 1, 0)
		}
		return nil
	})
}

func queueAudit(p redis.Pipeliner, id string) {
	p.Incr(ctx, "audit:"+id)
}

// A panic ends the run like a return; an error path that returns before
// the second command leaves one key per run.
func guarded(rdb *redis.ClusterClient, id string, ok bool) error {
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if !ok {
			p.Set(ctx, "failed:"+id, 1, 0)
			panic("not ok")
		}
		p.Set(ctx, "done:"+id, 1, 0)
		return nil
	})
	if err != nil {
		return err
	}
	_, err = rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if !ok {
			p.Set(ctx, "rejected:"+id, 1, 0)
			return errors.New("rejected")
		}
		p.Set(ctx, "accepted:"+id, 1, 0)
		return nil
	})
	return err
}
