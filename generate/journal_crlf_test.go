package generate

import (
	"testing"
	"time"
)

// TestRecoveredCRLFLog: a killed run's entry that log.md already holds is not recorded again when
// the log ends its lines with CRLF (as gen now writes them into such a log); and a journal item
// holding a carriage return, which Markdown reads as a line break, is refused like one holding a
// line feed: it could add a line of its own to log.md.
func TestRecoveredCRLFLog(t *testing.T) {
	j := &journal{Date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Entries: []journalEntry{{Path: "a.md", Item: "**Create**: A", SHA256: sha([]byte("x"))}}}
	onDisk := map[string][]byte{"a.md": []byte("x")}
	if got := recovered(j, onDisk, []byte("# Log\r\n\r\n## 2026-01-01\r\n\r\n* **Create**: A\r\n")); len(got) != 0 {
		t.Errorf("recovered %q again", got)
	}
	if got := recovered(j, onDisk, []byte("# Log\r\n")); len(got) != 1 {
		t.Errorf("recovered %q, want the entry", got)
	}
	if parseJournal([]byte(`{"date":"2026-01-01T00:00:00Z","entries":[{"path":"a.md","item":"x\r## 2020-01-01","sha256":"00"}]}`)) != nil {
		t.Error("a journal item with a carriage return was read")
	}
}
