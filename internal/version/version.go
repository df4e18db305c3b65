// Package version reads slotlint's version from the build information the
// Go toolchain stamps into every binary: the module version (a release tag
// such as v0.1.0 for go install ...@v0.1.0, a pseudo-version or "(devel)"
// for a build from a clone) and the VCS revision of a build from a clone.
// The command, SARIF's driver.version and the golangci-lint plugin print
// the same thing.
package version

import (
	"runtime/debug"
	"strings"
)

// Module is slotlint's module path: the build information lists it as the
// main module (a build from the repository or go install) or as a
// dependency (go tool slotlint in another module, golangci-lint with the
// plugin).
const Module = "github.com/slotlint/slotlint"

// Info is what a build says about slotlint.
type Info struct {
	// Version is the module version, "(devel)" when the toolchain knows
	// none (a build from a clone without VCS information).
	Version string
	// Revision is the VCS commit a build from a clone was made at, empty
	// when unknown; Modified says the tree had uncommitted changes.
	Revision string
	Modified bool
	// GoVersion is the toolchain that built the binary.
	GoVersion string
}

// Read returns the running binary's Info.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: "(devel)"}
	}
	return FromBuildInfo(bi)
}

// FromBuildInfo finds slotlint's module in bi. The VCS settings describe
// the main module only, so they count only when slotlint is the main
// module.
func FromBuildInfo(bi *debug.BuildInfo) Info {
	info := Info{Version: "(devel)", GoVersion: bi.GoVersion}
	main := bi.Main.Path == Module
	if main {
		info.Version = orDevel(bi.Main.Version)
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Revision = s.Value
			case "vcs.modified":
				info.Modified = s.Value == "true"
			}
		}
		return info
	}
	for _, dep := range bi.Deps {
		if dep.Path != Module {
			continue
		}
		info.Version = orDevel(dep.Version)
		if dep.Replace != nil && dep.Replace.Version != "" {
			info.Version = dep.Replace.Version
		}
	}
	return info
}

func orDevel(v string) string {
	if v == "" {
		return "(devel)"
	}
	return v
}

// String is the one-line form "v0.1.0" or "(devel) revision 5080509c1e2f
// (modified)".
func (i Info) String() string {
	var b strings.Builder
	b.WriteString(i.Version)
	if i.Revision != "" {
		b.WriteString(" revision ")
		b.WriteString(i.Revision)
		if i.Modified {
			b.WriteString(" (modified)")
		}
	}
	return b.String()
}
