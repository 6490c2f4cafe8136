package suggest

import "testing"

// TestUnknownValue checks the one wording of a value outside a closed list: the nearest value when a
// misspelling is likely (a transposition, a letter too many or too few), else what was expected.
func TestUnknownValue(t *testing.T) {
	for _, tc := range []struct {
		what, got string
		want      []string
		msg       string
	}{
		{"format", "markdwon", []string{"text", "markdown", "json", "html"}, `unknown format "markdwon"; did you mean "markdown"?`},
		{"condition", "stael", []string{"stale", "expiring"}, `unknown condition "stael"; did you mean "stale"?`},
		{"engine", "nextjss", []string{"generic", "hugo", "nextjs"}, `unknown engine "nextjss"; did you mean "nextjs"?`},
		{"severity", "errror", []string{"error", "warning", "info"}, `unknown severity "errror"; did you mean "error"?`},
		{"severity", "WARNING", []string{"error", "warning", "info"}, `unknown severity "WARNING"; did you mean "warning"?`},
		{"format", "yaml", []string{"text", "json"}, `unknown format "yaml"; expected text or json`},
		{"format", "x", []string{"text", "pretty", "json"}, `unknown format "x"; expected text, pretty or json`},
		{"format", "", []string{"text"}, `unknown format ""; expected text`},
	} {
		if got := UnknownValue(tc.what, tc.got, tc.want).Error(); got != tc.msg {
			t.Errorf("UnknownValue(%q, %q) = %q, want %q", tc.what, tc.got, got, tc.msg)
		}
	}
}
