// Package stdlib tells the standard library's packages from others by
// their import path and module, the one test the analyzers (which record
// no facts for the standard library) and the go vet fast path (which
// answers for it with its types alone) must agree on.
package stdlib

import "strings"

// IsStandard reports whether the package with this import path, in the
// module with this path ("" for none), is in the standard library: it has
// no module and its import path's first element has no dot.
func IsStandard(importPath, modulePath string) bool {
	if modulePath != "" {
		return false
	}
	first, _, _ := strings.Cut(importPath, "/")
	return !strings.Contains(first, ".")
}
