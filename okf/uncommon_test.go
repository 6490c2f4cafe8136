package okf

import (
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestUncommonShared checks the shared empty uncommon part stands for exactly what reading the keys
// of a frontmatter without them gives, and that a frontmatter with any of them gets its own.
func TestUncommonShared(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("type: Table\ntitle: T\n"), &doc); err != nil {
		t.Fatal(err)
	}
	if got := uncommonOf("a.md", doc.Content[0]); !reflect.DeepEqual(got, noUncommon) {
		t.Fatalf("uncommonOf without the keys = %+v, want the shared empty value %+v", got, noUncommon)
	}
	if !reflect.DeepEqual(noUncommon, &uncommon{}) {
		t.Fatalf("the shared empty value was written to: %+v", noUncommon)
	}
	plain, _ := ParseConcept("a.md", []byte("---\ntype: Table\n---\n# T\n"))
	if plain.Frontmatter.uncommon != noUncommon {
		t.Errorf("a frontmatter without uncommon keys does not share the empty value")
	}
	for _, key := range uncommonKeys {
		c, _ := ParseConcept("a.md", []byte("---\ntype: Table\n"+key+": x\n---\n# T\n"))
		if c.Frontmatter.uncommon == noUncommon {
			t.Errorf("%s: a frontmatter with the key shares the empty value", key)
		}
	}
	c, _ := ParseConcept("a.md", []byte("---\ntype: Attested Computation\nruntime: sqlite\nstale_after: 2026-01-01T00:00:00Z\n---\n# T\n"))
	if c.Frontmatter.Runtime().Text() != "sqlite" || c.Frontmatter.StaleAfter().Value.Raw != "2026-01-01T00:00:00Z" {
		t.Errorf("runtime %q, stale_after %q", c.Frontmatter.Runtime().Text(), c.Frontmatter.StaleAfter().Value.Raw)
	}
	if !reflect.DeepEqual(noUncommon, &uncommon{}) {
		t.Fatalf("the shared empty value was written to: %+v", noUncommon)
	}
}
