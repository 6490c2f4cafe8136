package okf

import (
	"regexp"
	"testing"
)

// TestIsURLMatchesTheSchemeGrammar checks the hand-written scanner against the RFC 3986 scheme
// grammar it replaced (a regexp), one-letter schemes (Windows drives) excepted.
func TestIsURLMatchesTheSchemeGrammar(t *testing.T) {
	ref := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]*:`)
	cases := map[string]bool{
		"https://example.com": true, "mailto:a@b.c": true, "git+ssh://x": true, "x-y.z:rest": true, "ab:": true,
		"C:/data/x.md": false, "c:": false, "/tables/orders.md": false, "orders.md": false, "../x.md": false,
		"#schema": false, "": false, ":x": false, "1http://x": false, "a b:c": false, "tables/a:b.md": false,
		"//host/x": false, "h2:": true, "+a:": false, "é:x": false,
	}
	for s, want := range cases {
		if got := IsURL(s); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", s, got, want)
		}
		if m := ref.FindString(s); (len(m) > 2) != want {
			t.Errorf("case %q disagrees with the grammar", s)
		}
	}
}
