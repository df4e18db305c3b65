package rules_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/analyzer/rules"
)

// TestCatalogue: every rule is documented, has a well-formed stable ID and
// belongs to an analyzer of the suite whose Doc names it.
func TestCatalogue(t *testing.T) {
	docs := map[string]string{}
	for _, a := range analyzer.Analyzers() {
		docs[a.Name] = a.Doc
	}
	id := regexp.MustCompile(`^SL[0-9]{4}$`)
	seen := map[string]bool{}
	for _, r := range rules.All() {
		if !id.MatchString(r.ID) || seen[r.ID] {
			t.Errorf("bad or duplicate ID %q", r.ID)
		}
		seen[r.ID] = true
		for name, v := range map[string]string{"Title": r.Title, "What": r.What, "Why": r.Why, "Bad": r.Bad, "Good": r.Good, "Fix": r.Fix} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s has no %s", r.ID, name)
			}
		}
		doc, ok := docs[r.Analyzer]
		if !ok {
			t.Errorf("%s: analyzer %q is not in the suite", r.ID, r.Analyzer)
		} else if !strings.Contains(doc, r.ID) {
			t.Errorf("%s: the Doc of analyzer %s does not name it", r.ID, r.Analyzer)
		}
		if got, ok := rules.Lookup(r.ID); !ok || got.ID != r.ID {
			t.Errorf("Lookup(%s) = %v, %v", r.ID, got, ok)
		}
	}
}
