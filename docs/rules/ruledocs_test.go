package ruledocs

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/analyzer/rules"
	"github.com/slotlint/slotlint/internal/ruleurl"
	"github.com/slotlint/slotlint/luacheck"
)

const docsDir = "."

// TestDocsMatchCode fails when docs/rules differs from what the catalogues
// render: a doc edited by hand, a rule changed without go generate, a rule
// without a doc or a doc without a rule.
func TestDocsMatchCode(t *testing.T) {
	want := Render()
	entries, err := os.ReadDir(docsDir)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		have[e.Name()] = true
		text, ok := want[e.Name()]
		if !ok {
			t.Errorf("docs/rules/%s documents no rule in code: delete it (go generate ./docs/rules)", e.Name())
			continue
		}
		got, err := os.ReadFile(filepath.Join(docsDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, text) {
			t.Errorf("docs/rules/%s differs from the catalogue in code: run go generate ./docs/rules", e.Name())
		}
	}
	var missing []string
	for name := range want {
		if !have[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	for _, name := range missing {
		t.Errorf("docs/rules/%s is missing: run go generate ./docs/rules", name)
	}
}

// Every rule ID of both catalogues has its page, with each part a user
// needs, and the URL diagnostics and SARIF point to names that page.
func TestEveryRuleHasADoc(t *testing.T) {
	docs := Render()
	var ids []string
	for _, r := range rules.All() {
		ids = append(ids, r.ID)
	}
	for _, r := range luacheck.Rules {
		ids = append(ids, r.ID)
	}
	if len(docs) != len(ids)+1 {
		t.Errorf("%d docs for %d rules (+ README.md)", len(docs), len(ids))
	}
	for _, id := range ids {
		doc, ok := docs[id+".md"]
		if !ok {
			t.Errorf("rule %s has no doc", id)
			continue
		}
		for _, part := range []string{"# " + id + ": ", "## Why it matters", "## Bad", "## Good", "## Suppress", "slotlint:ignore " + id + " reason"} {
			if !bytes.Contains(doc, []byte(part)) {
				t.Errorf("%s.md lacks %q", id, part)
			}
		}
		if !strings.HasSuffix(ruleurl.For(id), "/docs/rules/"+id+".md") {
			t.Errorf("ruleurl.For(%s) = %s, not its doc", id, ruleurl.For(id))
		}
		if !bytes.Contains(docs["README.md"], []byte("["+id+"]("+id+".md)")) {
			t.Errorf("README.md table lacks %s", id)
		}
	}
	for _, r := range rules.All() {
		for _, part := range []string{"## What it finds", "## Fix", r.Why} {
			if !bytes.Contains(docs[r.ID+".md"], []byte(part)) {
				t.Errorf("%s.md lacks %q", r.ID, part)
			}
		}
	}
}
