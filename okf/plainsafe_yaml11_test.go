package okf

import "testing"

// TestPlainSafeYAML11: a value okf writes unquoted must read as the same string in a YAML 1.1
// reader too (PyYAML, which python-frontmatter uses; Go's yaml.v2; Ruby's Psych): okf reads YAML
// 1.2 (D3), but a fix must not turn a string everyone read as a string into one that other readers
// take for a boolean or a number, or cannot read at all. `tags: "yes, no"` was fixed to
// `tags: [yes, no]` ([True, False] in PyYAML), "a, =" to `[a, =]` (which PyYAML refuses: "=" is
// its value tag), "1:30" to 1:30 (90, a base-60 integer).
func TestPlainSafeYAML11(t *testing.T) {
	for _, s := range []string{
		"yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
		"=", "<<", "1:30", "-1:30", "190:20:30.15", "1_000", "0b101", "0x_1F", "017", "+12", "1_0.5",
		".5", "1.2.3", ".inf", "-.Inf", ".NaN", "2026-1-2",
	} {
		if PlainSafe(s) {
			t.Errorf("PlainSafe(%q) = true: a YAML 1.1 reader does not read it as that string", s)
		}
		if q := Quote(s, 0); q[0] != '"' {
			t.Errorf("Quote(%q, 0) = %s, want it double-quoted", s, q)
		}
	}
	for _, s := range []string{"okf", "agent", "v1.2", "yesterday", "nope", "only", "a=b", "1a", "sales-ops", "x:y", "café", "2026 plans"} {
		if !PlainSafe(s) {
			t.Errorf("PlainSafe(%q) = false, want true", s)
		}
	}
}
