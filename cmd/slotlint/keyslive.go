package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/analyzer/keymap"
	"github.com/slotlint/slotlint/internal/keysout"
	"github.com/slotlint/slotlint/internal/keyspace"
)

// The live mode of slotlint keys: -redis samples a running server or
// cluster and adds what it finds to the map.
func init() {
	var f liveFlags
	keysModes = append(keysModes, keysMode{
		flags: f.register,
		run:   f.run,
	})
}

type liveFlags struct {
	redis      seedList
	replica    bool
	budgetKeys positiveInt
	budgetTime positiveDuration
	count      positiveInt
	timeout    positiveDuration
	hotShare   share
	progress   bool
}

// The flags check their values as they are parsed, so a bad value is a
// usage error before any package is loaded.
func (f *liveFlags) register(fs *flag.FlagSet) {
	f.budgetKeys = keyspace.DefaultBudgetKeys
	f.budgetTime = positiveDuration(keyspace.DefaultTimeBudget)
	f.count = keyspace.DefaultCount
	f.timeout = positiveDuration(keyspace.DefaultCallTimeout)
	f.hotShare = keyspace.DefaultHotShare
	fs.Var(&f.redis, "redis", "sample the keys of a running server: a redis:// or rediss:// `URL` or host:port of a standalone server or a cluster node; several, comma-separated, as a cluster seed list (read-only commands only: SCAN, TYPE, PTTL, MEMORY USAGE)")
	fs.BoolVar(&f.replica, "replica", false, "with -redis, scan one replica of each shard (READONLY) and never a master; a standalone address must be a replica")
	fs.Var(&f.budgetKeys, "budget-keys", "with -redis, sample at most `N` keys in all, spread over the masters in proportion to their DBSIZE")
	fs.Var(&f.budgetTime, "budget-time", "with -redis, stop sampling after this `duration`; the live report is then partial")
	fs.Var(&f.count, "count", "with -redis, the COUNT of each SCAN call: the server visits about `N` buckets per call")
	fs.Var(&f.timeout, "call-timeout", "with -redis, the longest `duration` to wait for one reply: a slower node is reported and left out")
	fs.Var(&f.hotShare, "hot-share", "with -redis, flag a family in one slot or shard from this `share` (0-1) of the keys or memory")
	fs.BoolVar(&f.progress, "progress", false, "with -redis, print progress on standard error every second even when it is not a terminal")
}

// run samples the keyspace when -redis is given. An interrupt (Ctrl-C)
// ends the scan and the map is written with what was sampled; a second one
// stops the program.
func (f *liveFlags) run(ctx context.Context, m *keymap.Map, stderr io.Writer) error {
	if len(f.redis) == 0 {
		return nil
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	go func() { <-ctx.Done(); stop() }()
	var patterns []keyspace.Pattern
	for _, fam := range m.Families {
		patterns = append(patterns, keyspace.Pattern{Family: fam.Name, Key: fam.Key})
	}
	opts := keyspace.Options{
		Seeds: f.redis, Replicas: f.replica,
		BudgetKeys: int(f.budgetKeys), TimeBudget: time.Duration(f.budgetTime), Count: int(f.count),
		CallTimeout: time.Duration(f.timeout), HotShare: float64(f.hotShare),
	}
	// A node that does not answer is reported in the live report; the
	// client library's own log line about it would only repeat it.
	redis.SetLogger(quietLog{})
	if f.progress || isTerminal(stderr) {
		opts.Progress = stderr
	}
	r, err := keyspace.Run(ctx, opts, keyspace.NewMatcher(patterns))
	if err != nil {
		return fmt.Errorf("-redis: %w", err)
	}
	keysout.AttachLive(m, r)
	for _, w := range r.Warnings {
		fmt.Fprintf(stderr, "slotlint keys: -redis: %s\n", w)
	}
	if len(r.Errors) > 0 {
		return fmt.Errorf("-redis: the live report is partial: %w", errors.Join(nodeErrors(r)...))
	}
	if r.Partial {
		fmt.Fprintf(stderr, "slotlint keys: -redis: the live report is partial: %s\n", strings.Join(r.PartialReasons, "; "))
	}
	return nil
}

func nodeErrors(r *keyspace.Report) []error {
	errs := make([]error, len(r.Errors))
	for i, e := range r.Errors {
		errs[i] = e
	}
	return errs
}

type quietLog struct{}

func (quietLog) Printf(context.Context, string, ...any) {}

// seedList is -redis: comma-separated addresses, each checked.
type seedList []string

func (s *seedList) String() string { return strings.Join(*s, ",") }

func (s *seedList) Set(v string) error {
	var seeds []string
	for _, seed := range strings.Split(v, ",") {
		if seed = strings.TrimSpace(seed); seed == "" {
			continue
		}
		if err := keyspace.CheckSeed(seed); err != nil {
			return err
		}
		seeds = append(seeds, seed)
	}
	if len(seeds) == 0 {
		return errors.New("no address")
	}
	*s = seeds
	return nil
}

type positiveInt int

func (p *positiveInt) String() string { return strconv.Itoa(int(*p)) }

func (p *positiveInt) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return errors.New("want a positive integer")
	}
	*p = positiveInt(n)
	return nil
}

type positiveDuration time.Duration

func (p *positiveDuration) String() string { return time.Duration(*p).String() }

func (p *positiveDuration) Set(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return errors.New("want a positive duration such as 30s or 2m")
	}
	*p = positiveDuration(d)
	return nil
}

type share float64

func (s *share) String() string { return strconv.FormatFloat(float64(*s), 'g', -1, 64) }

func (s *share) Set(v string) error {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || !(x > 0 && x <= 1) {
		return errors.New("want a share above 0 and at most 1, such as 0.1")
	}
	*s = share(x)
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
