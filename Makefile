# make test: everything, with real Redis servers that the harness starts
# (and installs from the distribution's packages when missing).
GO ?= go
FUZZTIME ?= 5s
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test check lint vet fmt-check go-test fuzz integration bench redis-shell

test:
	scripts/test-redis-test-env
	scripts/redis-test-env $(MAKE) --no-print-directory check

# check runs inside the harness: lint, the race-enabled test suite, then a
# short run of every fuzz target.
check: lint go-test fuzz integration

lint: fmt-check vet
	$(GO) run $(STATICCHECK) ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '/testdata/')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# The race detector runs on every package but two, whose suites load whole
# client libraries (rueidis, valkey-go, go-redis v8, redigo) from source or
# drive them against Redis: under -race those take three times as long
# (analyzer 168 s against 49 s, analyzer/groundtruth 141 s against 45 s)
# to run analyzer code that each analyzer's own package already runs under
# -race.
NORACE = ./analyzer ./analyzer/groundtruth

go-test:
	$(GO) test -race -count=1 $$($(GO) list ./... | grep -v -x -F "$$($(GO) list $(NORACE))")
	$(GO) test -count=1 $(NORACE)

fuzz:
	scripts/fuzz-all $(FUZZTIME)

# golangci-lint with the plugin and pre-commit, the real tools.
integration:
	scripts/test-integrations

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# A shell with the test servers up, for working on integration tests.
redis-shell:
	scripts/redis-test-env $${SHELL:-bash}
