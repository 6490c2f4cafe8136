package generate

import (
	"strings"
	"testing"
	"time"
)

// TestAddLogEntriesCRLF: entries added to a log written with CRLF line ends use them too, whether
// they open a new date group, join today's, or go at the end.
func TestAddLogEntriesCRLF(t *testing.T) {
	day := time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC)
	for _, old := range []string{
		"# Log\r\n\r\n## 2026-01-01\r\n\r\n* Old.\r\n",
		"# Log\r\n\r\n## 2026-01-03\r\n\r\n* Old.\r\n",
		"# Log\r\n\r\n## 2026-01-03\r\n",
		"# Log\r\n",
		"# Log\r\n\r\n## 2026-01-01\r\n\r\n* Old.",
	} {
		got := string(AddLogEntries([]byte(old), day, []string{"New."}))
		if !strings.Contains(got, "* New.\r\n") || strings.Count(got, "\n") != strings.Count(got, "\r\n") {
			t.Errorf("%q: line ends mixed:\n%q", old, got)
		}
	}
}
