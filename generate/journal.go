package generate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/okf-tools/okf/okf"
)

// The files gen keeps in a bundle while it works. Both are hidden, so OKF loaders skip them (D5).
const (
	// LockFile is held (flock) while a run writes (okf.LockBundle).
	LockFile = okf.LockFile
	// JournalFile lists the log entries of a run that is writing; it is removed once log.md is
	// written. A run killed before that leaves it behind, and the next run records in log.md the
	// entries whose concept files the killed run did write.
	JournalFile = ".okf-gen.journal"
)

// strayTempRE matches the temporary files okf.WriteFileAtomic creates (".name.tmp-" and 12 hex
// digits; earlier okf versions wrote decimal digits): one left in the bundle is the trace of a
// killed write.
var strayTempRE = &lazyRegexp{Expr: `^\..+\.tmp-([0-9]+|[0-9a-f]{12})$`}

// journal is what a run is about to record in log.md.
type journal struct {
	Date    time.Time      `json:"date"`
	Entries []journalEntry `json:"entries"`
}

type journalEntry struct {
	// Path is the concept's slash path; Item its log line (without "* "); SHA256 the content the
	// run writes there.
	Path   string `json:"path"`
	Item   string `json:"item"`
	SHA256 string `json:"sha256"`
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// recovered returns the log items of a killed run's journal that log.md lacks and whose concept
// file holds what that run wrote.
func recovered(j *journal, onDisk map[string][]byte, oldLog []byte) []string {
	var items []string
	for _, e := range j.Entries {
		data, ok := onDisk[e.Path]
		line := "* " + e.Item
		if !ok || sha(data) != e.SHA256 || strings.Contains(string(oldLog), line+"\n") || strings.Contains(string(oldLog), line+"\r\n") {
			continue
		}
		items = append(items, e.Item)
	}
	return items
}

// parseJournal reads a journal; nil when it cannot be read (it is then only removed).
func parseJournal(data []byte) *journal {
	var j journal
	if json.Unmarshal(data, &j) != nil || j.Date.IsZero() {
		return nil
	}
	for _, e := range j.Entries {
		if checkName(e.Path) != nil || strings.ContainsAny(e.Item, "\r\n") { // a line break of Markdown
			return nil
		}
	}
	return &j
}

// cleanup removes what a killed run left in the bundle: temporary files and, when cleared, the
// journal.
func (p *Plan) cleanup(out string) error {
	for _, s := range p.stray {
		if err := os.Remove(filepath.Join(out, filepath.FromSlash(s))); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

func isStray(p string) bool { return strayTempRE.Get().MatchString(path.Base(p)) }
