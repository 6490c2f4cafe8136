package okf

import "testing"

func TestClosest(t *testing.T) {
	cands := []string{"lint", "trust", "attest", "gen", "index", "schema", "version"}
	for _, tc := range []struct{ word, want string }{
		{"lnt", "lint"},      // one deletion
		{"LINT", "lint"},     // case
		{"trsut", "trust"},   // one transposition
		{"attets", "attest"}, // one transposition
		{"vers", "version"},  // a prefix
		{"xyz", ""},          // nothing close
		{"generate", ""},     // too far, and not a prefix of any
		{"", ""},
	} {
		if got := Closest(tc.word, cands); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	if got := Closest("okf-lint-disabel", []string{"okf-lint-disable", "okf-lint-disable-next-line"}); got != "okf-lint-disable" {
		t.Errorf("directive: got %q", got)
	}
}
