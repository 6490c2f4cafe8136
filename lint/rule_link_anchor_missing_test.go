package lint

import (
	"sort"
	"strings"
	"testing"
)

// TestHeadingSlug pins GitHub's anchors (github-slugger) for headings as their text reads once the
// Markdown is rendered; each expected anchor is what github.com shows for that heading.
func TestHeadingSlug(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Schema", "schema"},
		{"2. Glossary & Key Terminology", "2-glossary--key-terminology"},
		{"The order_id key", "the-order_id-key"},
		{"What's new?", "whats-new"},
		{"C++ / C#", "c--c"},
		{"Café au lait", "café-au-lait"},
		{"🚀 Launch", "-launch"},
		{"already-hyphenated name", "already-hyphenated-name"},
		{"Ünïcödé ÄÖÜ", "ünïcödé-äöü"},
		{"", ""},
	} {
		if got := headingSlug(tc.text); got != tc.want {
			t.Errorf("headingSlug(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestHeadingAnchors: a repeated anchor takes the first free suffix, as github-slugger does.
func TestHeadingAnchors(t *testing.T) {
	hs := []string{"Notes", "Notes", "Notes-1", "Notes", "Other"}
	var got []string
	for a := range headingAnchors(hs) {
		got = append(got, a)
	}
	sort.Strings(got)
	// notes, notes-1 (second Notes), notes-1-1 (Notes-1 repeats notes-1), notes-2, other
	if want := "notes notes-1 notes-1-1 notes-2 other"; strings.Join(got, " ") != want {
		t.Errorf("anchors %q, want %q", strings.Join(got, " "), want)
	}
}
