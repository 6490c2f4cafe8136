package migrate_test

import (
	"strings"
	"testing"
)

// TestTimestampKeptSaysWhy: a timestamp naming the instant generated.at names is removed only
// when its line holds nothing else; kept for a comment on its line, it was listed as "generated is
// present and says otherwise", which it does not.
func TestTimestampKeptSaysWhy(t *testing.T) {
	dir := bundle(t, map[string]string{
		"kb/index.md": "# C\n\n* [A](a.md) - x.\n",
		"kb/a.md":     "---\ntype: T\ntitle: A\ndescription: x.\ntimestamp: 2026-01-02 # note\ngenerated: {by: \"human:a\", at: 2026-01-02T00:00:00Z}\n---\nBody.\n",
	})
	p := plan(t, dir+"/kb")
	var left []string
	for _, l := range p.Left {
		left = append(left, l.Message)
	}
	got := strings.Join(left, "\n")
	if strings.Contains(got, "says otherwise") || !strings.Contains(got, "legacy timestamp kept: it names the instant generated.at names, but its line holds more than `timestamp: value`; delete it by hand (D10)") {
		t.Errorf("left %q", left)
	}
}
