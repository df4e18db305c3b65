package runtime

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

// TestFaultSlotMigration moves the slot that holds a family of locks from
// master to master, key by key as redis-cli --cluster reshard does, while
// goroutines on their own Clients obtain and release those locks. During a
// move the lock's keys are split between two nodes: the source answers ASK
// for the keys already gone and TRYAGAIN for a script whose keys are on
// both sides. Every Obtain and Release must succeed (each has a deadline,
// so a call that hangs fails the test), the critical sections must never
// overlap within their leases, and the moves must be seen: calls refused
// by the moving slot, counted by a hook.
func TestFaultSlotMigration(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a private cluster and runs for seconds")
	}
	cl := redistest.StartCluster(t)
	ctx := context.Background()
	const (
		locks      = 4
		clients    = 3
		perClient  = 3
		ttl        = 300 * time.Millisecond
		obtainWait = 3 * time.Second
		moves      = 6
	)
	id := tagged(t)
	keys := make([]string, locks)
	for i := range keys {
		keys[i] = Key("move", id, "lock"+strconv.Itoa(i))
	}
	s := slot.Slot(keys[0])

	var (
		inside    [locks]atomic.Int32
		counter   [locks]atomic.Int64
		sections  [locks]sectionLog
		acquired  atomic.Int64
		callErrs  sync.Map // error text -> *atomic.Int64
		stop      = make(chan struct{})
		wg        sync.WaitGroup
		lastError atomic.Value
	)
	countErr := func(op string, err error) {
		v, _ := callErrs.LoadOrStore(op+": "+err.Error(), new(atomic.Int64))
		v.(*atomic.Int64).Add(1)
		lastError.Store(op + ": " + err.Error())
	}
	refused := &refusalCounter{}
	for c := range clients {
		rdb := cl.Client(t, nil)
		rdb.AddHook(refused)
		rc := New(rdb, nil)
		for g := range perClient {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					k := (c*perClient + g + i) % locks
					octx, cancel := context.WithTimeout(ctx, obtainWait)
					l, err := rc.Obtain(octx, keys[k], ttl, nil)
					cancel()
					if err != nil {
						countErr("obtain", err)
						continue
					}
					acquired.Add(1)
					if l.Count() != 1 {
						// No goroutine re-enters: a count above 1 is an
						// Obtain that ran twice.
						countErr("obtain", fmt.Errorf("count %d", l.Count()))
					}
					if time.Now().Before(l.Deadline()) {
						in := time.Now()
						inside[k].Add(1)
						v := counter[k].Load()
						goruntime.Gosched()
						counter[k].Store(v + 1)
						inside[k].Add(-1)
						sections[k].add(section{in: in, out: time.Now(), deadline: l.Deadline(), fence: l.Fence()})
					}
					rctx, cancel := context.WithTimeout(ctx, obtainWait)
					err = l.Release(rctx)
					cancel()
					if err != nil && !errors.Is(err, ErrLockLost) {
						countErr("release", err)
					}
				}
			})
		}
	}

	nodes := make([]*redis.Client, len(cl.Masters))
	ids := make([]string, len(cl.Masters))
	for i, m := range cl.Masters {
		nodes[i] = m.Client(t)
		id, err := nodes[i].Do(ctx, "CLUSTER", "MYID").Text()
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	owner := -1
	for i, m := range cl.Masters {
		if cl.MasterOf(s) == m {
			owner = i
		}
	}
	// Let the workers create the locks' keys first.
	time.Sleep(200 * time.Millisecond)
	movedKeys := 0
	for range moves {
		to := (owner + 1) % len(nodes)
		n, err := moveSlot(ctx, s, nodes, ids, owner, to, cl.Masters[to])
		if err != nil {
			t.Errorf("moving slot %d from master %d to %d: %v", s, owner, to, err)
			break
		}
		movedKeys += n
		owner = to
		time.Sleep(50 * time.Millisecond)
	}
	close(stop)
	wg.Wait()

	var msgs []string
	callErrs.Range(func(k, v any) bool {
		msgs = append(msgs, fmt.Sprintf("%s (%d)", k, v.(*atomic.Int64).Load()))
		return true
	})
	t.Logf("%d moves of slot %d, %d keys migrated one by one, %d acquisitions, %d script calls refused by a moving slot and sent again; errors: %v",
		moves, s, movedKeys, acquired.Load(), refused.n.Load(), msgs)
	for k := range locks {
		for _, o := range sections[k].overlaps() {
			t.Errorf("lock %d: sections of fences %d and %d overlap, both within their lease", k, o[0].fence, o[1].fence)
		}
	}
	if len(msgs) > 0 {
		t.Errorf("calls failed while the slot moved: %v", msgs)
	}
	if movedKeys == 0 || acquired.Load() == 0 || refused.n.Load() == 0 {
		t.Fatalf("nothing exercised: %d keys moved, %d acquisitions, %d calls refused by the moving slot", movedKeys, acquired.Load(), refused.n.Load())
	}
}

// refusalCounter counts the script calls that go-redis returned refused
// by a moving slot (slotInMotion), which the package sends again.
type refusalCounter struct{ n atomic.Int64 }

func (r *refusalCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (r *refusalCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		if slotInMotion(cmd.Err()) {
			r.n.Add(1)
		}
		return err
	}
}

func (r *refusalCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		for _, cmd := range cmds {
			if slotInMotion(cmd.Err()) {
				r.n.Add(1)
			}
		}
		return err
	}
}

// moveSlot migrates slot s from master from to master to, one key at a
// time with a pause between keys so that scripts meet the split state,
// then assigns the slot to its new owner on every master. It returns the
// number of keys migrated.
func moveSlot(ctx context.Context, s int, nodes []*redis.Client, ids []string, from, to int, dst *redistest.Server) (int, error) {
	src, tgt := nodes[from], nodes[to]
	if err := tgt.Do(ctx, "CLUSTER", "SETSLOT", s, "IMPORTING", ids[from]).Err(); err != nil {
		return 0, fmt.Errorf("IMPORTING: %w", err)
	}
	if err := src.Do(ctx, "CLUSTER", "SETSLOT", s, "MIGRATING", ids[to]).Err(); err != nil {
		return 0, fmt.Errorf("MIGRATING: %w", err)
	}
	moved := 0
	for {
		keys, err := src.ClusterGetKeysInSlot(ctx, s, 10).Result()
		if err != nil {
			return moved, fmt.Errorf("GETKEYSINSLOT: %w", err)
		}
		if len(keys) == 0 {
			break
		}
		for _, k := range keys {
			err := src.Do(ctx, "MIGRATE", "127.0.0.1", dst.Port, k, 0, 5000, "REPLACE").Err()
			if err != nil && err.Error() != "NOKEY" {
				return moved, fmt.Errorf("MIGRATE %s: %w", k, err)
			}
			if err == nil {
				moved++
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// The new owner first, then the old one, then the rest.
	order := []int{to, from}
	for i := range nodes {
		if i != to && i != from {
			order = append(order, i)
		}
	}
	for _, i := range order {
		if err := nodes[i].Do(ctx, "CLUSTER", "SETSLOT", s, "NODE", ids[to]).Err(); err != nil {
			return moved, fmt.Errorf("SETSLOT NODE on master %d: %w", i, err)
		}
	}
	return moved, nil
}
