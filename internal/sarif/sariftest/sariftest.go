// Package sariftest validates SARIF output against the SARIF 2.1.0 JSON
// schema, for the tests of every command that writes it.
package sariftest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/slotlint/slotlint/internal/sarif"
)

// schemaJSON is the SARIF 2.1.0 JSON schema (draft-04), as the OASIS
// standard publishes it in its final release candidate form (rtm.5); the
// copy is the one shipped in the npm package @microsoft/jest-sarif
// 1.0.0-beta.0.
//
//go:embed sarif-2.1.0-rtm.5.json
var schemaJSON []byte

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	c.AssertFormat()
	const url = "sarif-schema-2.1.0.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
})

// Check reports whether output validates against the schema.
func Check(t testing.TB, output string) error {
	t.Helper()
	schema, err := compiled()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(output))
	if err != nil {
		return err
	}
	return schema.Validate(doc)
}

// Valid validates output against the schema and decodes it; it must hold
// one run.
func Valid(t testing.TB, output string) sarif.Log {
	t.Helper()
	if err := Check(t, output); err != nil {
		t.Fatalf("SARIF output does not validate against the SARIF 2.1.0 schema: %v\n%s", err, output)
	}
	var log sarif.Log
	if err := json.Unmarshal([]byte(output), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	return log
}
