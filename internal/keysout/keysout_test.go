package keysout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/slotlint/slotlint/analyzer/keymap"
)

func site(file string, line int) keymap.Site {
	return keymap.Site{File: file, Line: line, Col: 2, Package: "example.com/app"}
}

func family(name, pattern string, tag keymap.TagKind, slot *int) *keymap.Family {
	return &keymap.Family{Name: name, Pattern: pattern, Tag: tag, Slot: slot,
		Parts:    []keymap.Part{{Lit: name}},
		Types:    []string{"string"},
		Commands: []keymap.CommandUse{{Name: "DEL", Access: "write", Count: 1}, {Name: "GET", Access: "read", Count: 2}},
		Sites:    3, FirstSites: []keymap.Site{site("app/app.go", 10)}, Packages: []string{"example.com/app"}}
}

// sample is a map with one family of each tag kind, a joint use of each
// verdict (one of keys built elsewhere only), a group and a move.
func sample() *keymap.Map {
	slot := 7650
	return &keymap.Map{
		Version:  keymap.SchemaVersion,
		Packages: []string{"example.com/app"},
		Families: []*keymap.Family{
			family("session:*", "session:<id>", keymap.NoTag, nil),
			family("tokens:*", "tokens:<id>", keymap.NoTag, nil),
			family("cart:{*}", "cart:{<id>}", keymap.EntityTag, nil),
			family("{stats}:*", "{stats}:<id>", keymap.ConstantTag, &slot),
		},
		Joint: []*keymap.JointUse{
			{Kind: keymap.JointCommand, What: "DEL", Site: site("app/app.go", 17), Families: []string{"session:*", "tokens:*"},
				Verdict: keymap.CrossSlot, Reason: "no common tag", Rules: []string{"SL1002"},
				Findings: []keymap.Finding{{Rule: "SL1002", Site: site("app/app.go", 17), Message: "DEL keys share no hash tag"}}},
			{Kind: keymap.JointTransaction, What: "MULTI/EXEC", Method: "TxPipelined", Site: site("app/app.go", 30),
				Families: []string{"cart:{*}"}, Verdict: keymap.SameSlot},
			{Kind: keymap.JointCommand, What: "RENAME", Site: site("app/move.go", 5), Families: []string{}, Unresolved: 2, Verdict: keymap.Unknown},
		},
		Groups: []*keymap.Group{{Families: []string{"session:*", "tokens:*"}, Verdict: keymap.CrossSlot, Joint: 1, Tag: "{<id>}",
			Suggested: []keymap.Suggestion{{Family: "session:*", Pattern: "session:{<id>}"}, {Family: "tokens:*", Pattern: "tokens:{<id>}"}}}},
		Moves: []*keymap.Move{{Family: "{stats}:*", From: "{stats}:<id>", To: "stats:{<id>}", Slot: slot}},
	}
}

func empty() *keymap.Map {
	return &keymap.Map{Version: keymap.SchemaVersion, Packages: []string{}, Families: []*keymap.Family{},
		Joint: []*keymap.JointUse{}, Groups: []*keymap.Group{}, Moves: []*keymap.Move{}}
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, sample()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"4 key families in 1 package\n",
		"{stats}:<id>  constant  7650  string  DEL(w) GET(r)x2  3      app/app.go:10:2\n",
		"cross-slot  SL1002  command      DEL                       session:* + tokens:*  app/app.go:17:2\n",
		"same-slot   -       transaction  MULTI/EXEC (TxPipelined)  cart:{*}",
		"unknown     -       command      RENAME                    2 unresolved",
		"  session:* + tokens:*: cross-slot, 1 joint use, common tag {<id>}\n      session:* -> session:{<id>}\n",
		"  {stats}:<id> -> stats:{<id>} (every key in slot 7650)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := Text(&b, empty()); err != nil || b.String() != "0 key families in 0 packages\n" {
		t.Errorf("empty map: %q, %v", b.String(), err)
	}
}

// schema compiles keys.schema.json, the documented form of -json.
func schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("keys.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("keys.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("keys.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestJSONMatchesSchema(t *testing.T) {
	s := schema(t)
	for name, m := range map[string]*keymap.Map{"sample": sample(), "empty": empty()} {
		var b bytes.Buffer
		if err := JSON(&b, m); err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(doc); err != nil {
			t.Errorf("%s: -json does not match keys.schema.json: %v\n%s", name, err, b.String())
		}
	}
	// The schema is strict: a field it does not name fails, so a new field
	// cannot go out undocumented.
	bad := map[string]any{"version": 1, "packages": []string{}, "families": []any{}, "joint": []any{}, "groups": []any{}, "moves": []any{}, "extra": 1}
	raw, _ := json.Marshal(bad)
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if s.Validate(doc) == nil {
		t.Error("the schema accepts a field it does not name")
	}
}

// TestSchemaDocumented: docs/keys.md names every field of the JSON form.
func TestSchemaDocumented(t *testing.T) {
	raw, err := os.ReadFile("keys.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/keys.md")
	if err != nil {
		t.Fatal(err)
	}
	var fields []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for name := range props {
					fields = append(fields, name)
				}
			}
			for _, w := range v {
				walk(w)
			}
		case []any:
			for _, w := range v {
				walk(w)
			}
		}
	}
	var s any
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	walk(s)
	slices.Sort(fields)
	for _, f := range slices.Compact(fields) {
		if !bytes.Contains(doc, []byte("`"+f+"`")) {
			t.Errorf("docs/keys.md does not describe the JSON field `%s`", f)
		}
	}
}

func TestDot(t *testing.T) {
	var b bytes.Buffer
	if err := Dot(&b, sample()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	nodes := regexp.MustCompile(`(?m)^  f\d+ \[label=`).FindAllString(out, -1)
	edgeLines := regexp.MustCompile(`(?m)^  f\d+ -- f\d+ `).FindAllString(out, -1)
	// Four families; the DEL joins two, the transaction loops on one and
	// the RENAME of keys built elsewhere draws nothing.
	if len(nodes) != 4 || len(edgeLines) != 2 {
		t.Errorf("%d nodes and %d edges, want 4 and 2:\n%s", len(nodes), len(edgeLines), out)
	}
	for _, want := range []string{
		`f0 -- f1 [color="#c62828", label="DEL SL1002"`,
		`f2 -- f2 [color="#2e7d32"`,
		`label="{stats}:<id>\nconstant tag"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("dot lacks %s:\n%s", want, out)
		}
	}
	if !strings.HasPrefix(out, "graph keys {\n") || !strings.HasSuffix(out, "}\n") {
		t.Errorf("not one graph:\n%s", out)
	}
}

// TestHTMLSelfContained: the page loads nothing (no URL but the SVG
// namespace), shows every family in the graph and the table, and draws
// each edge in its verdict's colour.
func TestHTMLSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := HTML(&b, sample()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	withoutNS := strings.ReplaceAll(out, `xmlns="http://www.w3.org/2000/svg"`, "")
	for _, fetch := range []string{"http:", "https:", "src=", "href=", "url(", "@import", "//cdn"} {
		if strings.Contains(withoutNS, fetch) {
			t.Errorf("the page may fetch something: it holds %q", fetch)
		}
	}
	if n := strings.Count(out, `<g class="node"`); n != 4 {
		t.Errorf("%d nodes, want 4", n)
	}
	if n := strings.Count(out, `<tr data-id=`); n != 4 {
		t.Errorf("%d family rows, want 4", n)
	}
	for _, want := range []string{
		`>{stats}:&lt;id&gt;</text>`,
		`class="edge" data-from="0" data-to="1" data-verdict="cross-slot" stroke="#c62828" d="M `,
		`data-verdict="same-slot" stroke="#2e7d32" d="M `,
		`id="search"`, `id="verdict"`, `id="selfcheck"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(out, "ZgotmplZ") {
		t.Error("the template refused a value (ZgotmplZ)")
	}
	b.Reset()
	if err := HTML(&b, empty()); err != nil || !strings.Contains(b.String(), `data-families="0"`) {
		t.Errorf("empty map: %v", err)
	}
}

// TestLayoutNoOverlap: however many families and however long their
// names, no two boxes overlap and all are inside the drawing.
func TestLayoutNoOverlap(t *testing.T) {
	m := empty()
	var ring []string
	for i := range 14 {
		name := fmt.Sprintf("service:%s:{*}:%d", strings.Repeat("long", i%4), i)
		m.Families = append(m.Families, family(name, name, keymap.EntityTag, nil))
		ring = append(ring, name)
	}
	for i := range 9 {
		name := fmt.Sprintf("alone:%d", i)
		m.Families = append(m.Families, family(name, name, keymap.NoTag, nil))
	}
	m.Families = append(m.Families, family("pair:a", "pair:a", keymap.NoTag, nil), family("pair:b-with-a-much-longer-name", "pair:b-with-a-much-longer-name", keymap.NoTag, nil))
	m.Joint = append(m.Joint, &keymap.JointUse{Kind: keymap.JointScript, Families: ring, Verdict: keymap.SameSlot},
		&keymap.JointUse{Kind: keymap.JointCommand, Families: []string{"pair:a", "pair:b-with-a-much-longer-name"}, Verdict: keymap.CrossSlot})
	g := layout(m)
	if len(g.nodes) != len(m.Families) || len(g.edges) != 13+1 {
		t.Fatalf("%d nodes, %d edges", len(g.nodes), len(g.edges))
	}
	for i, a := range g.nodes {
		if a.x-a.w/2 < 0 || a.y-a.h/2 < 0 || a.x+a.w/2 > g.width || a.y+a.h/2 > g.height {
			t.Errorf("%s at (%.0f,%.0f) is outside %.0fx%.0f", a.family.Name, a.x, a.y, g.width, g.height)
		}
		for _, b := range g.nodes[i+1:] {
			if overlap(a, b, 0) {
				t.Errorf("%s and %s overlap", a.family.Name, b.family.Name)
			}
		}
	}
}

// liveFamily and liveMap stand for what live sampling adds.
type liveFamily struct{ Seen int }

func (l liveFamily) Summary() string { return fmt.Sprintf("%d keys seen", l.Seen) }

type liveMap struct{}

func (liveMap) WriteText(w io.Writer) error {
	_, err := io.WriteString(w, "sampled 120 keys\n")
	return err
}

// TestLiveSections: a family's live section shows in the text table's
// LIVE column and the page's live column, by its Summary or else as JSON,
// and the map's live section follows the text tables.
func TestLiveSections(t *testing.T) {
	m := sample()
	m.Families[0].Live = liveFamily{Seen: 42}
	m.Families[1].Live = map[string]int{"seen": 7}
	m.Live = liveMap{}
	var b bytes.Buffer
	if err := Text(&b, m); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"FIRST SITE       LIVE\n", "app/app.go:10:2  42 keys seen\n", `app/app.go:10:2  {"seen":7}` + "\n", "app/app.go:10:2  -\n", "\nsampled 120 keys\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := HTML(&b, m); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "<th>live</th>") || !strings.Contains(b.String(), `<td class="mono">42 keys seen</td>`) {
		t.Error("the page has no live column with the family's summary")
	}
	b.Reset()
	if err := Text(&b, sample()); err != nil || strings.Contains(b.String(), "LIVE") {
		t.Errorf("a static map has a LIVE column:\n%s", b.String())
	}
}
