// Package luaparse is gopher-lua's Lua parser (github.com/yuin/gopher-lua
// v1.1.2, package parse; MIT licence, see LICENSE) changed only in how it
// reads its input and uses memory, for a checker that parses thousands of
// small scripts in one process:
//
//   - the scanner reads the source from a byte slice instead of byte by
//     byte through a bufio.Reader, and reuses one token buffer;
//   - blanks, tabs and the rest of a line comment are skipped in place,
//     and names are taken from the source in one piece; one-character
//     tokens and reserved words take their text from a table instead of
//     allocating it;
//   - parser stacks, scanner, lexer and parser state are pooled across
//     parses instead of allocated per parse;
//   - a parser stack entry keeps a token's text and line and column (the
//     source name is the scanner's) instead of the whole ast.Token, so the
//     entries the parser copies on every shift and reduction are smaller.
//
// The grammar, the tokens, the AST (gopher-lua's ast package) and the error
// values and messages are upstream's: TestSameAsUpstream and
// FuzzSameAsUpstream compare the two parsers on the checker's scripts and
// on fuzzed input.
package luaparse
