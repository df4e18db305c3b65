package suitetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestApplyEdits: edits apply in file order, the same edit of two fixes
// once, and overlapping different edits are a conflict.
func TestApplyEdits(t *testing.T) {
	src := []byte(`k := "user:" + id`)
	brace := []edit{{11, 11, "{"}, {15, 17, `id + "}"`}}
	for _, tc := range []struct {
		name  string
		edits []edit
		want  string
		err   string
	}{
		{"one fix", brace, `k := "user:{" + id + "}"`, ""},
		{"the same fix twice", append(brace, brace[1], brace[0]), `k := "user:{" + id + "}"`, ""},
		{"conflict", append(brace, edit{14, 17, "+ x"}), "", `fixes conflict: edit 15..17 "id + \"}\"" overlaps 14..17 "+ x"`},
		{"outside the file", []edit{{12, 99, ""}}, "", "outside the file's 17 bytes"},
	} {
		got, err := applyEdits(src, tc.edits)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		case tc.err == "" && (err != nil || string(got) != tc.want):
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

// TestCheckFixedFile: the fixed file must equal its golden file up to
// gofmt, and a file a fix edits must have one.
func TestCheckFixedFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	if err := os.WriteFile(file, []byte("package a\n\nvar k = \"user:\" + id\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fix := []edit{{25, 25, "{"}, {29, 31, `id + "}"`}}
	for _, tc := range []struct {
		name, golden string // golden "" = no golden file
		want         string
	}{
		{"matches", "package a\n\nvar k = \"user:{\" +   id + \"}\"\n", ""},
		{"differs", "package a\n\nvar k = \"user:\" + id\n", "with its fixes applied differs from a.go.golden"},
		{"no golden file", "", "is edited by a fix"},
	} {
		os.Remove(file + ".golden")
		if tc.golden != "" {
			if err := os.WriteFile(file+".golden", []byte(tc.golden), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r := &recorder{TB: t}
		checkFixedFile(r, file, fix)
		if got := strings.Join(r.errs, "\n"); (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: reported %q, want %q", tc.name, got, tc.want)
		}
	}
}
