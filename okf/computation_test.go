package okf

import "testing"

func TestComputationBlocks(t *testing.T) {
	src := "---\ntype: Attested Computation\n---\n# Notes\n\n```sql\nSELECT 0\n```\n\n# Computation\n\n## SQL\n\n```sql\nSELECT 1\n```\n\n    SELECT 2\n\n# After\n\n```\nx\n```\n"
	c, _ := ParseConcept("c.md", []byte(src))
	blocks := ComputationBlocks(c)
	if len(blocks) != 2 || blocks[0].Content != "SELECT 1\n" || blocks[1].Content != "SELECT 2\n" || blocks[1].Fenced {
		t.Fatalf("blocks %+v", blocks)
	}
}

func TestIsAttestedComputation(t *testing.T) {
	for src, want := range map[string]bool{
		"type: Attested Computation\n":     true,
		"type: ' attested computation '\n": true,
		"type: Metric\n":                   false,
		"type: [Attested Computation]\n":   false,
	} {
		c, _ := ParseConcept("c.md", []byte("---\n"+src+"---\n"))
		if got := IsAttestedComputation(c.Frontmatter); got != want {
			t.Errorf("%q: %v, want %v", src, got, want)
		}
	}
}
