// Command gen writes the rediscmd command table from a running Redis's
// COMMAND INFO and COMMAND DOCS.
//
//	scripts/redis-test-env go run ./internal/rediscmd/gen -out internal/rediscmd/table_gen.go
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/redis/go-redis/v9"
)

func main() {
	addr := flag.String("addr", os.Getenv("SLOTLINT_REDIS_ADDR"), "Redis address (default $SLOTLINT_REDIS_ADDR)")
	out := flag.String("out", "table_gen.go", "output file")
	flag.Parse()
	if *addr == "" {
		log.Fatal("gen: no Redis address: pass -addr or run under scripts/redis-test-env")
	}
	c := redis.NewClient(&redis.Options{Addr: *addr, Protocol: 2})
	defer c.Close()
	src, err := generate(context.Background(), c)
	if err != nil {
		log.Fatalf("gen: %v", err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatalf("gen: %v", err)
	}
	fmt.Fprintf(os.Stderr, "gen: wrote %s\n", *out)
}
