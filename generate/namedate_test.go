package generate

import "testing"

// TestNameDateByEngine: each engine reads a date in a file name by its own rule. Docusaurus's
// DATE_FILENAME_REGEX is date, an optional - or /, then the text (2024-01-02_hello.md is
// /2024/01/02/_hello); Zola also takes "_" and a time (2024-01-02T10:00:00_hello.md); Jekyll's
// posts and Eleventy's fileSlug need "-".
func TestNameDateByEngine(t *testing.T) {
	for _, tc := range []struct {
		engine, file, slug, path string
		dated                    bool
	}{
		{"docusaurus", "2024-01-02_hello.md", "_hello", "2024/01/02/_hello", true},
		{"docusaurus", "2024-01-02-hello.md", "hello", "2024/01/02/hello", true},
		{"docusaurus", "2024/01/02/hello.md", "hello", "2024/01/02/hello", true},
		{"docusaurus", "2024-01-02T10:00:00-hello.md", "T10:00:00-hello", "2024/01/02/T10:00:00-hello", true},
		{"zola", "2024-01-02_hello.md", "hello", "hello", true},
		{"zola", "2024-01-02T10:00:00_hello.md", "hello", "hello", true},
		{"jekyll", "2024-01-02_hello.md", "2024-01-02_hello", "2024-01-02_hello", false},
		{"jekyll", "2024-01-02-hello.md", "hello", "hello", true},
		{"eleventy", "2024-01-02_hello.md", "2024-01-02_hello", "2024-01-02_hello", false},
	} {
		slug, p, date := nameParts(tc.file, Engines[tc.engine])
		if slug != tc.slug || p != tc.path || date.IsZero() == tc.dated {
			t.Errorf("%s %s: slug %q path %q date %v; want %q %q dated %v", tc.engine, tc.file, slug, p, date, tc.slug, tc.path, tc.dated)
		}
	}
}
