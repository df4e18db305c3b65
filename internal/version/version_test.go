package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	for _, tt := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"go install @v0.1.0", debug.BuildInfo{Main: debug.Module{Path: Module, Version: "v0.1.0"}}, "v0.1.0"},
		{"clone with VCS stamping", debug.BuildInfo{
			Main:     debug.Module{Path: Module, Version: "v0.1.1-0.20261202031600-5080509ff146+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "5080509ff146a521271a0eb6a89e9887ddf4c6c2"}, {Key: "vcs.modified", Value: "true"}},
		}, "v0.1.1-0.20261202031600-5080509ff146+dirty revision 5080509ff146a521271a0eb6a89e9887ddf4c6c2 (modified)"},
		{"clone without VCS information", debug.BuildInfo{Main: debug.Module{Path: Module, Version: "(devel)"}}, "(devel)"},
		{"go tool in another module", debug.BuildInfo{
			Main: debug.Module{Path: "example.com/shop", Version: "(devel)"},
			// The other module's VCS settings are not slotlint's.
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}},
			Deps:     []*debug.Module{{Path: "github.com/redis/go-redis/v9", Version: "v9.23.0"}, {Path: Module, Version: "v0.1.0"}},
		}, "v0.1.0"},
		{"replaced by a directory", debug.BuildInfo{
			Main: debug.Module{Path: "example.com/shop"},
			Deps: []*debug.Module{{Path: Module, Version: "v0.0.0-00010101000000-000000000000", Replace: &debug.Module{Path: "../.."}}},
		}, "v0.0.0-00010101000000-000000000000"},
		{"not linked in", debug.BuildInfo{Main: debug.Module{Path: "example.com/other"}}, "(devel)"},
	} {
		bi := tt.bi
		if got := FromBuildInfo(&bi).String(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
