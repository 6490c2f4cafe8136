package lint

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/okf-tools/okf/okf"
)

// TestCorpusErrorCounts lints every real bundle of ../shared/corpus with every rule: the number of
// errors must be the one its README states (D1: only §11 non-conformance is an error), whatever the
// family and engine rules add as warnings and infos.
func TestCorpusErrorCounts(t *testing.T) {
	corpus := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("no ../shared/corpus")
	}
	want := map[string]int{
		"acme_retail": 0, "antigravity": 0, "cricket": 2, "crypto_bitcoin": 0, "ga4": 0, "ifmis": 51,
		"js-ecosystem-refs": 0, "ml_experiment_trail": 0, "stackoverflow": 0, "tempguru_event_staffing": 0,
	}
	now := time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)
	for name, n := range want {
		b, err := okf.LoadDir(filepath.Join(corpus, name), okf.LoadOptions{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		errs := 0
		for _, d := range Run(b, Options{Now: now}) {
			if d.Severity == okf.Error {
				errs++
				if r := Lookup(d.Code); r == nil || r.Severity != okf.Error {
					t.Errorf("%s: %s is an error, but its rule's default severity is not (D1)", name, d)
				}
			}
		}
		if errs != n {
			t.Errorf("%s: %d errors, want %d", name, errs, n)
		}
	}
}
