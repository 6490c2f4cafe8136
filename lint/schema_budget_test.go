package lint

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/okf"
)

// TestBundleSchemaWorkBounded: a bundle's schema with two recursive anyOf branches and a
// frontmatter 26 levels deep (2^26 evaluations: minutes) is a finding on that concept, OKF906,
// and the run goes on: the other concept of the type is still checked against that schema.
func TestBundleSchemaWorkBounded(t *testing.T) {
	fsys := fstest.MapFS{
		"schemas/tree.json": {Data: []byte(`{"$defs": {"n": {"anyOf": [
			{"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}},
			{"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}}]}},
			"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}, "owner": {"type": "string"}}}`)},
		"bomb.md": {Data: []byte("---\ntype: Tree\na: " + strings.Repeat("{a: ", 26) + "1" + strings.Repeat("}", 26) + "\n---\n")},
		"fine.md": {Data: []byte("---\ntype: Tree\nowner: 5\n---\n")},
	}
	cfg := mustConfig(t, "schemas:\n  Tree: schemas/tree.json\n")
	done := make(chan []okf.Diagnostic, 2)
	go func() {
		b, err := okf.Load(fsys, okf.LoadOptions{})
		if err != nil {
			t.Error(err)
			done <- nil
			return
		}
		done <- Run(b, Options{Rules: engineOnly(), Config: cfg})
		check := NewSchemaCheck(fsys, cfg)
		b, _ = okf.Load(fsys, okf.LoadOptions{OnFrontmatter: check.OnFrontmatter})
		done <- Run(b, Options{Rules: engineOnly(), Config: cfg, Schemas: check})
	}()
	for _, how := range []string{"by the rule", "while loading"} {
		select {
		case got := <-done:
			expectSome(t, got,
				`bomb.md:2:1: schema of type "Tree": not checked: checking this frontmatter against "schemas/tree.json" would take more than 1000000 steps (schemas.MaxWork) [OKF906] warning`,
				`fine.md:3:8: schema of type "Tree": owner: expected a string, found an integer [OKF905] warning`)
		case <-time.After(60 * time.Second):
			t.Fatalf("%s: still checking after a minute", how)
		}
	}
}
