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
)

// Extract returns the Doc of analyzer name from content, the source of a Go
// file whose package comment has a "# Analyzer name" section.
func Extract(content, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("analyzer %s: doc file does not parse: %v", name, err)
	}
	if f.Doc == nil {
		return "", fmt.Errorf("analyzer %s: doc file has no package comment", name)
	}
	text := "\n" + f.Doc.Text()
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
