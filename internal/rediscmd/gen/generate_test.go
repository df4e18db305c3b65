package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/internal/redistest"
)

// TestTableIsCurrent regenerates the table from the harness Redis and
// requires the committed file to match it.
func TestTableIsCurrent(t *testing.T) {
	c := redis.NewClient(&redis.Options{Addr: redistest.StandaloneAddr(t), Protocol: 2})
	defer c.Close()
	got, err := generate(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../table_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("internal/rediscmd/table_gen.go differs from what this Redis reports: run 'go generate ./internal/rediscmd' under scripts/redis-test-env")
	}
}
