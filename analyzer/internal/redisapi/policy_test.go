package redisapi

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/internal/redistest"
)

// TestMultiShardMatchesServer: MultiShard lists exactly the commands whose
// COMMAND INFO carries request_policy:multi_shard on the server the tests
// run against, and marks as reads exactly those it flags readonly.
func TestMultiShardMatchesServer(t *testing.T) {
	rdb := redistest.Standalone(t)
	reply, err := rdb.Do(context.Background(), "COMMAND").Slice()
	if err != nil {
		t.Fatal(err)
	}
	server := map[string]bool{} // multi_shard command -> read-only
	for _, entry := range reply {
		info, ok := entry.([]any)
		if !ok || len(info) < 8 {
			t.Fatalf("unexpected COMMAND entry %v", entry)
		}
		name := strings.ToUpper(fmt.Sprint(info[0]))
		multi := false
		for _, tip := range asStrings(info[7]) {
			multi = multi || strings.EqualFold(tip, "request_policy:multi_shard")
		}
		if !multi {
			continue
		}
		readOnly := false
		for _, flag := range asStrings(info[2]) {
			readOnly = readOnly || flag == "readonly"
		}
		server[name] = readOnly
	}
	if len(server) == 0 {
		t.Fatal("the server names no multi_shard command: too old to check against")
	}
	for name, ro := range server {
		got, ok := MultiShard[name]
		if !ok {
			t.Errorf("%s is multi_shard on the server but missing from MultiShard", name)
		} else if got != ro {
			t.Errorf("MultiShard[%s] = %v, the server flags it readonly=%v", name, got, ro)
		}
	}
	for name := range MultiShard {
		if _, ok := server[name]; !ok {
			t.Errorf("MultiShard lists %s, which the server does not send per shard", name)
		}
	}
}

func asStrings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		out = append(out, fmt.Sprint(x))
	}
	return out
}
