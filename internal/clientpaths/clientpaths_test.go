package clientpaths

import "testing"

func TestIsClientPackage(t *testing.T) {
	for path, want := range map[string]bool{
		GoRedis:                         true,
		GoRedis + "/internal/pool":      true,
		GoRedisV8:                       true,
		Redigo:                          true,
		Rueidis:                         true,
		Rueidis + "/internal/cmds":      true,
		RueidisCompat:                   true,
		Valkey + "/valkeycompat":        true,
		Rueidis + "/rueidislock":        false,
		Valkey + "/valkeylock":          false,
		Runtime:                         false,
		"github.com/redis/go-redis/v9x": false,
		"example.com/shop":              false,
	} {
		if got := IsClientPackage(path); got != want {
			t.Errorf("IsClientPackage(%q) = %v, want %v", path, got, want)
		}
	}
}
