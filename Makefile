# make test: everything, with real Redis servers that the harness starts
# (and installs from the distribution's packages when missing).
GO ?= go
# make test fuzzes each target for a short while after its seeds and cached
# corpus: a smoke run for inputs that break new code at once. Every second
# of it is a second of one or two cores (the worker and the coordinator)
# per target, nine targets one after another, so 2 s each rather than 5 s
# (BENCHMARKS.md, "How long make test takes"); the seeds also run in the
# regular go test step, and `scripts/fuzz-all 10m` fuzzes for long.
FUZZTIME ?= 2s
# One fuzzing worker per target: make test fuzzes beside the other test
# lines, which keep both cores busy; seeds and the cached corpus still run
# first, and `scripts/fuzz-all 10m` alone fuzzes with every core.
FUZZWORKERS ?= 1
# A test binary that runs longer fails with a stack dump naming the running
# test, well before go test's default of 10 minutes; see BENCHMARKS.md ("How
# long make test takes") for what each package takes.
TESTTIMEOUT ?= 8m

.PHONY: test check check-race check-serial lint vet fmt-check go-test go-test-race go-test-norace go-test-plain go-test-volume fuzz integration bench bench-vet redis-shell

test:
	scripts/test-redis-test-env
	scripts/redis-test-env $(MAKE) --no-print-directory check

# check runs inside the harness, in three lines side by side: the
# race-enabled tests, then runtime's volume tests; the analyzer's tests;
# lint, the packages tested without -race that are not the analyzer's,
# then a short run of every fuzz target, then the integrations. Each line
# alone keeps at most two processes busy, and much of the race-enabled
# line waits on Redis (runtime's lock tests sleep past TTLs and pause
# servers) or on the go command, so a third line fills the two cores
# instead of leaving them idle (see BENCHMARKS.md, "How long make test
# takes"). runtime's race-enabled tests and then its volume tests are the
# longest chain (134 s and 62 s in a run with warm caches): what can run
# elsewhere runs in the other lines. go test prints each package's output as one
# block, so the lines do not interleave within a package.
check:
	@$(MAKE) --no-print-directory -j3 --output-sync=line timed-check-race timed-go-test-norace timed-check-serial

# timed-TARGET makes TARGET and prints how long it took, wall and CPU (its
# processes and theirs): the line that ends last is the one to shorten, and
# its steps, timed too, say where its time went.
timed-%:
	@if [ -x /usr/bin/time ]; then \
		/usr/bin/time -f "make check: $* took %e s wall, %U s user + %S s system" $(MAKE) --no-print-directory $*; \
	else \
		$(MAKE) --no-print-directory $*; \
	fi

check-race:
	@$(MAKE) --no-print-directory timed-go-test-race
	@$(MAKE) --no-print-directory timed-go-test-volume

check-serial:
	@$(MAKE) --no-print-directory timed-lint
	@$(MAKE) --no-print-directory timed-go-test-plain
	@$(MAKE) --no-print-directory timed-fuzz
	@$(MAKE) --no-print-directory timed-integration

# staticcheck is pinned by the tool directive in go.mod.
lint: fmt-check vet bench-vet
	$(GO) tool staticcheck ./...

# Every Go file, testdata included: the analyzers' cases, the golden files
# of their fixes and the test modules are all meant to be valid Go (the
# broken e2e module has a type error, not a syntax error). A file that does
# not parse fails the check too.
fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' '*.go.golden')) || exit 1; \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# The race detector runs on every package but the analyzer's and the
# command's. Their tests spend most of their CPU type-checking go-redis,
# the client libraries and the standard library, which -race slows two to
# three times (analyzer/config: 77 s of CPU with -race, analyzer/crossslot
# 53 s; cmd/slotlint's in-process tests 49 s against 25 s; see
# BENCHMARKS.md) without testing slotlint's code: neither has goroutines of
# its own, and cmd/slotlint's end-to-end tests run a binary built without
# -race anyway. The analyzers still run under -race where the checker runs
# them in parallel over many packages: runtime's TestSelfLint (the whole
# suite over runtime, go-redis and the standard library). internal/vetx,
# the go vet shortcut split out of cmd/slotlint, type-checks net/http and
# its dependencies in its test and has no goroutines either.
NORACE = ./analyzer/... ./cmd/... ./internal/vetx

# Nor on these: their tests start no goroutine and call no code of
# slotlint's that does (slot's hashing, generated tables and docs, output
# writers, the client libraries' paths, the plugin's settings), or run
# shell scripts (scripts' test runs findings-diff, whose two slotlint
# builds are made without -race anyway). The race detector would check
# nothing there; without it they take a few seconds of CPU less (21.3 and
# 23.4 s with -race, 20.5 and 19.1 s without, interleaved, load 11-13)
# and leave the race-enabled line, the longest, for the lint line
# (BENCHMARKS.md, "How long make test takes"). A package that starts
# goroutines of its own belongs in the race-enabled line.
PLAIN = ./docs/... ./internal/clientpaths ./internal/keysout ./internal/rediscmd/... ./internal/ruleurl ./internal/sarif/... ./internal/stdlib ./internal/version ./plugin/... ./scripts ./slot

go-test: go-test-race go-test-norace go-test-plain go-test-volume

# go test starts the packages' test binaries in the order it is given
# them, as many at a time as -p allows (the number of CPUs): the ones that
# run longest go first, runtime's (its lock tests on real servers, one
# after another, and TestSelfLint) before all, then scripts' (it builds
# slotlint twice) and the packages that type-check or start clusters of
# their own. In go list's order runtime started last, after a minute and
# a half of the short packages, and the line then waited on it alone
# (BENCHMARKS.md, "How long make test takes"). A package left out of this
# list still runs, after these.
RACE_FIRST = ./runtime ./luacheck ./internal/pkgload ./internal/suitetest ./internal/keyspace

go-test-race:
	$(GO) test -race -count=1 -timeout $(TESTTIMEOUT) $$($(GO) list $(RACE_FIRST) ./... | grep -v -x -F "$$($(GO) list $(NORACE) $(PLAIN))")

go-test-norace:
	$(GO) test -count=1 -timeout $(TESTTIMEOUT) $(NORACE)

# scripts' test, the longest of them (it builds slotlint twice), first.
go-test-plain:
	$(GO) test -count=1 -timeout $(TESTTIMEOUT) ./scripts $(PLAIN)

# runtime's volume tests (100,000 locks or acquisitions) skip themselves
# under -race, which makes each call three to four times as costly, and run
# here; under -race the mutual-exclusion test runs 10,000 acquisitions.
RUNTIME_NORACE = ^(TestMutualExclusionUnderFaults|TestLocksLeaveNoKeys)$$

go-test-volume:
	$(GO) test -count=1 -timeout $(TESTTIMEOUT) -run '$(RUNTIME_NORACE)' ./runtime

fuzz:
	scripts/fuzz-all $(FUZZTIME) $(FUZZWORKERS)

# golangci-lint with the plugin and pre-commit, the real tools.
integration:
	TESTTIMEOUT=$(TESTTIMEOUT) scripts/test-integrations

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The benchmarks live in a module of their own (bench/go.mod) that go vet
# ./... above does not enter: build and vet it, tests included, so that a
# change to the main module's API cannot leave it broken unnoticed.
bench-vet:
	cd bench && $(GO) build ./... && $(GO) vet ./...

# A shell with the test servers up, for working on integration tests.
redis-shell:
	scripts/redis-test-env $${SHELL:-bash}
