package redisapi

import "github.com/slotlint/slotlint/internal/clientpaths"

// IsClientPackage reports whether path is a package of a client library
// itself (not a package shipped beside it that only uses it). Rules do not
// check client packages, and their string functions build no user keys,
// so keyexpr exports no facts for them either.
func IsClientPackage(path string) bool { return clientpaths.IsClientPackage(path) }
