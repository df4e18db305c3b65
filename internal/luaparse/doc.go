// Package luaparse is gopher-lua's Lua 5.1 parser (github.com/yuin/gopher-lua
// v1.1.2, package parse; MIT licence, in LICENSE beside this file), with the
// same grammar and the same AST (gopher-lua's ast package), changed only
// where the Lua checker spent its time:
//
//   - the scanner reads the script's bytes directly instead of through a
//     bufio.Reader (a function call and an error check per byte, and a
//     4 KiB buffer per parse);
//   - one buffer holds the text of each token in turn, where a new
//     bytes.Buffer grew for every token: a tenth of what checking a script
//     allocated.
//
// parser.go is goyacc's output for gopher-lua's parser.go.y, unchanged but
// for the package name; the AST dump helpers are left out.
package luaparse
