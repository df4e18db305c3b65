// Package luaparse is gopher-lua's Lua parser (github.com/yuin/gopher-lua
// v1.1.2, package parse; MIT licence, see LICENSE) changed only in how it
// uses memory, for a checker that parses thousands of small scripts in one
// process:
//
//   - the scanner reads the source from a byte slice instead of byte by
//     byte through a bufio.Reader, and reuses one token buffer;
//   - one-character tokens take their text from a table instead of
//     allocating it;
//   - parser stacks are pooled across parses instead of allocated per
//     parse and regrown.
//
// The grammar, the tokens, the AST (gopher-lua's ast package) and the error
// values and messages are upstream's: TestSameAsUpstream and
// FuzzSameAsUpstream compare the two parsers on the checker's scripts and
// on fuzzed input.
package luaparse
