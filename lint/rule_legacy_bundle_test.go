package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// A v0.1 producer's own `status: active` (or a stale_after that is no timestamp) on every file is
// no evidence of v0.2: the bundle gets the one bundle-level v0.1 finding, and the per-concept legacy
// timestamps stay at info. A status v0.2 defines is evidence.
func TestLegacyBundleIgnoresV01Values(t *testing.T) {
	for _, c := range []struct {
		extra string
		v01   bool
	}{
		{"status: active", true},
		{"stale_after: quarterly", true},
		{"status: draft", false},
		{"stale_after: 2027-01-01T00:00:00Z", false},
	} {
		dir := t.TempDir()
		for _, name := range []string{"a.md", "b.md", "c.md"} {
			text := "---\ntype: Note\ntitle: " + name + "\ntimestamp: 2026-01-02T03:04:05Z\n" + c.extra + "\n---\n# Body\n"
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		b, err := okf.LoadDir(dir, okf.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		bundle, perFileWarnings := 0, 0
		for _, d := range Run(b, Options{Now: fixtureNow}) {
			switch {
			case d.Code == LegacyBundle.Code:
				bundle++
			case d.Code == LegacyTimestamp.Code && d.Severity == okf.Warning:
				perFileWarnings++
			}
		}
		if c.v01 && (bundle != 1 || perFileWarnings != 0) {
			t.Errorf("%s: %d bundle-level v0.1 findings and %d per-file legacy warnings, want 1 and 0", c.extra, bundle, perFileWarnings)
		}
		if !c.v01 && bundle != 0 {
			t.Errorf("%s: read as a v0.1 bundle, but it uses a v0.2 field", c.extra)
		}
	}
}
