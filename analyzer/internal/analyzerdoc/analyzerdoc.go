// Package analyzerdoc takes an analyzer's Doc from the package comment of
// its doc.go, so the text `slotlint help NAME` and go vet print is the text
// pkg.go.dev shows, written once.
//
// The package comment holds a section per analyzer:
//
//	// # Analyzer NAME
//	//
//	// NAME: one-line summary, which may wrap
//	//
//	// Longer description...
//
// The section runs to the next heading or the end of the comment. The
// summary paragraph becomes Doc's first line (analysis.Analyzer wants the
// summary there), the rest follows after a blank line.
package analyzerdoc

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
	"unicode/utf8"
)

// Extract returns the Doc of analyzer name from content, the source of a Go
// file whose package comment has a "# Analyzer name" section.
func Extract(content, name string) (string, error) {
	doc, ok := lineComment(content)
	if !ok {
		var err error
		if doc, err = parsedComment(content, name); err != nil {
			return "", err
		}
	}
	text := "\n" + doc
	heading := "\n# Analyzer " + name + "\n"
	i := strings.Index(text, heading)
	if i < 0 {
		return "", fmt.Errorf("package comment has no %q heading", strings.TrimSpace(heading))
	}
	body := text[i+len(heading):]
	if j := strings.Index(body, "\n# "); j >= 0 {
		body = body[:j]
	}
	body = strings.TrimSpace(body)
	rest, ok := strings.CutPrefix(body, name+":")
	if !ok {
		return "", fmt.Errorf("heading \"# Analyzer %s\" is not followed by a %q line", name, name+": summary")
	}
	summary, more, _ := strings.Cut(strings.TrimSpace(rest), "\n\n")
	summary = strings.Join(strings.Fields(summary), " ")
	if summary == "" {
		return "", fmt.Errorf("analyzer %s: empty summary", name)
	}
	if more = strings.TrimSpace(more); more == "" {
		return summary, nil
	}
	return summary + "\n\n" + more, nil
}

// parsedComment is the text of content's package comment as go/parser
// and go/ast give it.
func parsedComment(content, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("analyzer %s: doc file does not parse: %v", name, err)
	}
	if f.Doc == nil {
		return "", fmt.Errorf("analyzer %s: doc file has no package comment", name)
	}
	return f.Doc.Text(), nil
}

// lineComment is parsedComment for the usual doc.go, without go/parser:
// every analyzer package's Doc is built when the binary starts, and
// parsing each doc.go then cost a measurable part of a short run's start
// (slotlint lua on one script). It accepts only a file made of blank lines
// and whole-line // comments, ending in a plain "package name" line right
// after a comment; anything else (a /* comment, code, a carriage return,
// a malformed clause) is left to go/parser (ok false). The text is what
// go/ast's CommentGroup.Text gives for that comment group.
func lineComment(content string) (text string, ok bool) {
	// go/parser rejects a NUL, a byte order mark past the start and
	// invalid UTF-8, also in comments.
	if strings.ContainsAny(content, "\r\x00\uFEFF") || !utf8.ValidString(content) {
		return "", false
	}
	var group []string // the // comment lines seen since the last blank line
	for len(content) > 0 {
		line, rest, _ := strings.Cut(content, "\n")
		content = rest
		switch {
		case line == "":
			group = group[:0]
		case strings.HasPrefix(line, "//"):
			group = append(group, line[2:])
		case strings.HasPrefix(line, "package "):
			if len(group) == 0 || !isIdent(strings.TrimRight(line[len("package "):], " \t")) {
				return "", false
			}
			return commentText(group), true
		default:
			return "", false
		}
	}
	return "", false
}

// commentText is go/ast's CommentGroup.Text for // comments whose markers
// are removed.
func commentText(comments []string) string {
	lines := make([]string, 0, len(comments)+1)
	for _, c := range comments {
		if c != "" {
			if c[0] == ' ' {
				c = c[1:]
			} else if isDirective(c) {
				continue
			}
		}
		lines = append(lines, strings.TrimRight(c, " \t\n\r"))
	}
	// No leading blank lines; runs of blank lines become one.
	n := 0
	for _, line := range lines {
		if line != "" || n > 0 && lines[n-1] != "" {
			lines[n] = line
			n++
		}
	}
	lines = lines[:n]
	if n > 0 && lines[n-1] != "" {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// isDirective is go/ast's: a //line, //extern or //export comment, or one
// of the form //[a-z0-9]+:[a-z0-9] (//go:embed), without the //.
func isDirective(c string) bool {
	if strings.HasPrefix(c, "line ") || strings.HasPrefix(c, "extern ") || strings.HasPrefix(c, "export ") {
		return true
	}
	colon := strings.Index(c, ":")
	if colon <= 0 || colon+1 >= len(c) {
		return false
	}
	for i := 0; i <= colon+1; i++ {
		if i == colon {
			continue
		}
		if b := c[i]; !('a' <= b && b <= 'z' || '0' <= b && b <= '9') {
			return false
		}
	}
	return true
}

// isIdent reports whether s is an ASCII Go identifier and not a keyword
// ("_" is left to go/parser too).
func isIdent(s string) bool {
	if s == "" || s == "_" || token.IsKeyword(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !('a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b == '_' || i > 0 && '0' <= b && b <= '9') {
			return false
		}
	}
	return true
}

// MustExtract is Extract for package initialization: a doc.go without the
// analyzer's section is a mistake in slotlint, caught by any test that
// loads the package.
func MustExtract(content, name string) string {
	doc, err := Extract(content, name)
	if err != nil {
		panic(err)
	}
	return doc
}
