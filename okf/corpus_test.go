package okf

import (
	"os"
	"path/filepath"
	"testing"
)

// corpusDir is the shared corpus of real bundles written by other people (see its README). It is
// absent in a user's clone, where these tests skip.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/corpus is absent")
	}
	return dir
}

// TestCorpusConformance checks the §11 verdicts the corpus README gives for each bundle.
func TestCorpusConformance(t *testing.T) {
	dir := corpusDir(t)
	want := map[string]int{
		"acme_retail": 0, "antigravity": 0, "cricket": 2, "crypto_bitcoin": 0, "ga4": 0, "ifmis": 51,
		"js-ecosystem-refs": 0, "ml_experiment_trail": 0, "stackoverflow": 0, "tempguru_event_staffing": 0,
	}
	for name, n := range want {
		t.Run(name, func(t *testing.T) {
			b, err := LoadDir(filepath.Join(dir, name), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var errs []Diagnostic
			for _, d := range b.Diagnostics {
				if d.Severity == Error {
					errs = append(errs, d)
				}
			}
			if len(errs) != n {
				for _, d := range errs {
					t.Log(d)
				}
				t.Fatalf("%d errors, want %d", len(errs), n)
			}
		})
	}
}
