package generate

import (
	"strings"
	"testing"
)

// TestRegenerateUnreadableReason: a concept gen wrote whose frontmatter a person broke (YAML that
// no longer parses) is skipped saying so, with the line; it was skipped as "not written by
// process:okf-gen (generated.by is absent)", which sent the reader looking at generated.by.
func TestRegenerateUnreadableReason(t *testing.T) {
	old := []byte("---\ntype: Concept\ntitle: One\nsources:\n  - resource: https://x.example/one\nowner: me\n    last_modified: 2025-12-01T00:00:00Z\ngenerated:\n  by: process:okf-gen\n  at: 2026-01-01T00:00:00Z\n---\nBody.\n")
	_, _, _, reason := regenerate("concepts/one.md", old, &ConceptData{Title: "One"}, Options{Actor: "process:okf-gen"})
	if !strings.HasPrefix(reason, "concepts/one.md has frontmatter gen cannot read (line 7: ") || strings.Contains(reason, "generated.by") {
		t.Errorf("reason %q", reason)
	}
}
