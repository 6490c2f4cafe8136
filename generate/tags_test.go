package generate

import (
	"fmt"
	"strings"
	"testing"
)

// TestTagsBounded: tags, categories and keywords are merged case-insensitively in one pass, and a
// post naming thousands of them keeps the first maxTags of each, with a warning (a hostile post
// cannot make the merge quadratic).
func TestTagsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\ntitle: T\ntags: [Go, go, Rust]\ncategories: [RUST, c0")
	for i := 1; i < 5000; i++ {
		fmt.Fprintf(&b, ", c%d", i)
	}
	b.WriteString("]\nkeywords: [GO, Zig]\n---\nText.\n")
	post, prob := ParsePost("p.md", []byte(b.String()), Engines["generic"])
	if prob != nil {
		t.Fatal(prob)
	}
	if len(post.Tags) != maxTags || len(post.Categories) != maxTags {
		t.Fatalf("tags %d, categories %d: want at most %d each", len(post.Tags), len(post.Categories), maxTags)
	}
	if got := strings.Join(post.Tags[:4], ","); got != "Go,Rust,c0,c1" {
		t.Errorf("tags start %q, want Go,Rust,c0,c1 (first spelling wins, case-insensitive)", got)
	}
	var warned bool
	for _, w := range post.Warnings {
		warned = warned || strings.Contains(w.Message, fmt.Sprintf("the first %d are kept", maxTags))
	}
	if !warned {
		t.Errorf("no warning about the cap: %v", post.Warnings)
	}
	if got := mergeTags([]string{"a", "B"}, []string{"b", "A", "c", "C"}); strings.Join(got, ",") != "a,B,c" {
		t.Errorf("mergeTags: %q", got)
	}
}
