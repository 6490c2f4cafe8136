package okf

import (
	"strings"
	"testing"
)

// §12: versions are <major>.<minor>; only those after 0.2 are newer.
func TestNewerVersion(t *testing.T) {
	for v, want := range map[string]bool{
		"0.3": true, "0.10": true, "1.0": true, " 2.0 ": true, "0.2": false, "0.1": false, "0.0": false,
		"2": false, "v0.3": false, "0.3.1": false, "latest": false, "": false, "0.": false, ".3": false,
		"0.-3": false, "0.3a": false, "9999999999.0": false,
	} {
		if got := NewerVersion(v); got != want {
			t.Errorf("NewerVersion(%q) = %v, want %v", v, got, want)
		}
	}
}

// Every log heading that is no date group gets a message naming the heading, whatever it holds.
func FuzzLogHeadingMessage(f *testing.F) {
	for _, s := range []string{"2026-06-13T10:00:00Z", "2026/06/13", "20260613", "6/11/2026", "June 13, 2026", "13 Jun 2026", "Notes", "2026-02-30", "2026-06-130", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if len(h) > 1<<12 {
			return
		}
		msg := logHeadingMessage(h)
		if !strings.HasPrefix(msg, "log heading ") || !strings.Contains(msg, "(§9") {
			t.Fatalf("message %q", msg)
		}
	})
}
