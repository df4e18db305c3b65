package lockcheck

import (
	"errors"
	"math/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

// The classic: retry every 5 ms until the lock is free.
func spin(rdb *redis.Client, key, token string) {
	for {
		ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
		if err == nil && ok {
			return
		}
		time.Sleep(5 * time.Millisecond) // want `lock retry loop on key waits a fixed 5ms between attempts \(no growth, no jitter\): clients that lose the race retry in lockstep and hammer the key's shard; back off exponentially with jitter, as runtime's Client.Obtain does`
	}
}

func spinSelect(rdb *redis.Client, id string) error {
	for attempt := 0; attempt < 100; attempt++ {
		if rdb.SetArgs(ctx, "job:{"+id+"}", 1, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Val() == "OK" {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond): // want `lock retry loop on "job:\{" \+ id \+ "\}" waits a fixed 50ms`
		}
	}
	return nil
}

func spinTick(rdb *redis.Client, key string) {
	for range time.Tick(100 * time.Millisecond) { // want `lock retry loop on key waits a fixed 100ms`
		if rdb.SetNX(ctx, key, 1, time.Second).Val() {
			return
		}
	}
}

func spinTicker(rdb *redis.Client, key string, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		<-t.C // want `lock retry loop on key waits a fixed interval \(every\)`
		if tryLock(rdb, key) {
			return
		}
	}
}

func tryLock(rdb *redis.Client, key string) bool {
	return rdb.SetNX(ctx, key, 1, time.Second).Val()
}

type locker struct {
	rdb   *redis.Client
	delay time.Duration
}

// The delay is configurable but never changes between attempts.
func (l *locker) lock(key string) {
	for !l.rdb.SetNX(ctx, key, 1, time.Second).Val() {
		time.Sleep(l.delay) // want `lock retry loop on key waits a fixed interval \(l.delay\)`
	}
}

// Silent: exponential backoff with jitter.
func backoff(rdb *redis.Client, key string) {
	delay := time.Millisecond
	for !rdb.SetNX(ctx, key, 1, time.Second).Val() {
		time.Sleep(delay/2 + time.Duration(rand.Int63n(int64(delay))))
		if delay < time.Second {
			delay *= 2
		}
	}
}

// Silent: the wait grows with the attempt.
func linear(rdb *redis.Client, key string) {
	for i := 1; !rdb.SetNX(ctx, key, 1, time.Second).Val(); i++ {
		time.Sleep(time.Duration(i) * 10 * time.Millisecond)
	}
}

// Silent: a polling loop that takes no lock, and a sleep after the loop.
func poll(rdb *redis.Client, key string) {
	for rdb.Exists(ctx, key).Val() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	if rdb.SetNX(ctx, key, 1, time.Second).Val() {
		time.Sleep(time.Second)
	}
}

// Silent: a periodic job takes the lock each round, works, and waits for
// the next round; the fixed pace is intended.
func periodic(rdb *redis.Client) {
	for range time.Tick(time.Minute) {
		if rdb.SetNX(ctx, "cron:cleanup", 1, 50*time.Second).Val() {
			work()
		}
	}
}

func periodicSleep(rdb *redis.Client) {
	for {
		ok, err := rdb.SetNX(ctx, "cron:report", 1, 50*time.Second).Result()
		if err != nil {
			return
		}
		if ok {
			work()
		}
		time.Sleep(time.Minute)
	}
}

// Reported: break out of the loop once the lock is taken.
func spinBreak(rdb *redis.Client, key string) {
	for {
		if rdb.SetNX(ctx, key, 1, time.Second).Val() {
			break
		}
		select {
		case <-time.After(20 * time.Millisecond): // want `lock retry loop on key waits a fixed 20ms`
		case <-ctx.Done():
			return
		}
	}
	work()
}

// Silent: each goroutine waits a random time between attempts, and the
// range loop takes no lock itself.
func batch(rdb *redis.Client, keys []string) {
	for _, k := range keys {
		go func() {
			for {
				if rdb.SetNX(ctx, k, 1, time.Second).Val() {
					return
				}
				time.Sleep(time.Duration(rand.Intn(100)) * time.Millisecond)
			}
		}()
	}
	time.Sleep(time.Second)
}

// In the image of RichardKnop/machinery's redis lock (locks/redis): a
// helper takes the lock and reports failure as an error, and the retry
// loop around it waits the configured interval each time.
type periodicLock struct {
	rdb      *redis.Client
	retries  int
	interval time.Duration
}

var errLockTaken = errors.New("lock taken")

func (l periodicLock) lock(key string, until int64) error {
	ok, err := l.rdb.SetNX(ctx, key, until, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errLockTaken
	}
	return nil
}

func (l periodicLock) lockWithRetries(key string, until int64) error {
	for i := 0; i <= l.retries; i++ {
		err := l.lock(key, until)
		if err == nil {
			return nil
		}
		time.Sleep(l.interval) // want `lock retry loop on key waits a fixed interval \(l.interval\)`
	}
	return errLockTaken
}

// The same helper in the loop's condition: it goes round while taking
// the lock fails.
func (l periodicLock) lockUntilTaken(key string) {
	for err := l.lock(key, 0); err != nil; err = l.lock(key, 0) {
		time.Sleep(time.Second) // want `lock retry loop on key waits a fixed 1s`
	}
}

// Silent: the loop gives up on the first failure and otherwise works and
// waits for the next round; a failed lock is not retried.
func (l periodicLock) everyMinute(key string) error {
	for {
		if err := l.lock(key, 0); err != nil {
			return err
		}
		work()
		time.Sleep(time.Minute)
	}
}
