package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/okf-tools/okf/okf"
)

// corpusDir is the folder of real bundles written by other people that the corpus tests read: the
// whole corpus at ../shared/corpus when it is there (next to the repository, see CONTRIBUTING.md),
// else the slice of it committed in testdata/corpus, so a plain clone runs these tests too.
var corpusDir = func() string {
	if dir := filepath.Join("..", "..", "shared", "corpus"); isCorpus(dir) {
		return dir
	}
	return filepath.Join("..", "testdata", "corpus")
}()

func isCorpus(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}

// verdictRow is a row of a corpus README's table: | bundle | source | licence | verdict |.
var verdictRow = regexp.MustCompile(`^\| ([A-Za-z0-9_.-]+) \| [^|]+ \| [^|]+ \| (conformant|not conformant: (\d+) errors?)\b`)

// corpusVerdicts reads the §11 verdict of each bundle from the corpus's README (the corpus
// maintainers' reading of the spec, not okf's output): the number of errors a run must report.
// Every bundle folder must have a row, so a bundle added without a verdict fails here.
func corpusVerdicts(t *testing.T) map[string]int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, line := range strings.Split(string(data), "\n") {
		if m := verdictRow.FindStringSubmatch(line); m != nil {
			want[m[1]], _ = strconv.Atoi(m[3]) // 0 for "conformant"
		}
	}
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := want[e.Name()]; e.IsDir() && !ok {
			t.Errorf("bundle %s has no verdict row in %s/README.md", e.Name(), corpusDir)
		}
	}
	if len(want) == 0 {
		t.Fatalf("%s/README.md lists no verdicts", corpusDir)
	}
	return want
}

// corpusNow is a fixed clock for corpus runs (D11).
var corpusNow = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

func lintCorpus(t *testing.T, name string, now time.Time) []okf.Diagnostic {
	t.Helper()
	dir := filepath.Join(corpusDir, name)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus bundle %s is not in %s (only the full corpus, ../shared/corpus, has it): %v", name, corpusDir, err)
	}
	b, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return Run(b, Options{Now: now})
}

func countCode(ds []okf.Diagnostic, code string, sev okf.Severity) (n int, wrongSeverity []okf.Diagnostic) {
	for _, d := range ds {
		if d.Code != code {
			continue
		}
		n++
		if d.Severity != sev {
			wrongSeverity = append(wrongSeverity, d)
		}
	}
	return n, wrongSeverity
}

// TestCorpusVerdicts runs every rule over the real bundles of the shared corpus: the error counts
// match the corpus README (§11 verdicts), and no rule outside the §11 conformance set reports an
// error (D1).
func TestCorpusVerdicts(t *testing.T) {
	wantErrors := corpusVerdicts(t)
	conformance := map[string]bool{}
	for _, r := range conformanceRules() {
		conformance[r.Code] = true
	}
	for name, want := range wantErrors {
		t.Run(name, func(t *testing.T) {
			ds := lintCorpus(t, name, corpusNow)
			errs := 0
			for _, d := range ds {
				if d.Severity != okf.Error {
					continue
				}
				errs++
				if !conformance[d.Code] {
					t.Errorf("non-conformance rule reported an error (D1): %s", d)
				}
			}
			if errs != want {
				t.Errorf("%d errors, the corpus README says %d", errs, want)
			}
		})
	}
}

// TestCorpusFindings pins the findings the corpus README names.
func TestCorpusFindings(t *testing.T) {
	for _, tc := range []struct {
		bundle string
		now    time.Time
		code   string
		sev    okf.Severity
		want   int
		why    string
	}{
		{"stackoverflow", corpusNow, FootnoteUnknownSource.Code, okf.Warning, 11, "11 footnotes whose labels match no sources[].id (D16)"},
		{"tempguru_event_staffing", corpusNow, LogHeadingExtraText.Code, okf.Warning, 1, "log heading with text after its date (D8)"},
		{"tempguru_event_staffing", corpusNow, LogHeadingDate.Code, okf.Error, 0, "that heading starts with a valid date: not an error"},
		{"antigravity", corpusNow, LinkBroken.Code, okf.Info, 18, "18 broken links, tolerated (§6.1, D15)"},
		{"acme_retail", time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC), Stale.Code, okf.Warning, 7, "7 concepts stale at 2027-01-15"},
		{"acme_retail", corpusNow, AttesterUnresolved.Code, okf.Warning, 2, "attesters/sql_equality.py was left out of the copy"},
		{"acme_retail", corpusNow, ActorUnconventional.Code, okf.Warning, 0, "team: as a sources author follows §5.1's own example"},
		{"ml_experiment_trail", corpusNow, LegacyCitations.Code, okf.Info, 3, "v0.1 style # Citations"},
		{"acme_retail", corpusNow, ExecutorUnresolved.Code, okf.Warning, 0, "executor.resource skills/run-on-bq.md is present (from the root)"},
		{"acme_retail", corpusNow, ComputationPartyMissing.Code, okf.Warning, 0, "both computations name an executor and an attester"},
		{"cricket", corpusNow, Orphan.Code, okf.Info, 5, "5 concepts are reached only through README prose or a custom frontmatter list"},
		{"antigravity", corpusNow, HeadingMissing.Code, okf.Info, 8, "its 8 concepts open their sections with ## under a frontmatter title"},
		{"ifmis", corpusNow, LinkAnchorMissing.Code, okf.Info, 0, "its table-of-contents links match GitHub's anchors (2-glossary--key-terminology)"},
		{"ml_experiment_trail", corpusNow, LegacyBundle.Code, okf.Warning, 1, "v0.1 keys and no v0.2 field: one bundle-level finding (§13)"},
		{"ml_experiment_trail", corpusNow, LegacyTimestamp.Code, okf.Info, 5, "on a v0.1 bundle each legacy timestamp is info"},
		{"tempguru_event_staffing", corpusNow, LegacyBundle.Code, okf.Warning, 1, "the root declares okf_version 0.1"},
		{"tempguru_event_staffing", corpusNow, LegacyTimestamp.Code, okf.Info, 81, "on a v0.1 bundle each legacy timestamp is info"},
		{"acme_retail", corpusNow, LegacyBundle.Code, okf.Warning, 0, "a v0.2 bundle"},
		{"cricket", corpusNow, StatusUnknown.Code, okf.Info, 1, "status: active on 12 files of a bundle with no v0.2 field: one bundle-level info, no warning per file (§13.2)"},
		{"stackoverflow", corpusNow, SourceNeverCited.Code, okf.Info, 31, "31 sources ids no footnote cites (D16: info)"},
		{"crypto_bitcoin", corpusNow, SourceNeverCited.Code, okf.Info, 8, "8 sources ids no footnote cites (D16: info)"},
		{"js-ecosystem-refs", corpusNow, DescriptionTooLong.Code, okf.Info, 1, "one single-sentence description of 201 characters (backend/hono.md)"},
		{"js-ecosystem-refs", corpusNow, DescriptionNotOneSentence.Code, okf.Info, 1, "the long one is one sentence: not reported as sentences (data/redux-toolkit.md has two)"},
	} {
		t.Run(tc.bundle+"/"+tc.code, func(t *testing.T) {
			if tc.bundle == "js-ecosystem-refs" && corpusDir != filepath.Join("..", "..", "shared", "corpus") {
				// testdata/corpus holds a slice of it (ai-sdk/ and dates/): the files these count are
				// outside it (testdata/corpus/README.md).
				t.Skip("the slice of js-ecosystem-refs in testdata/corpus has neither backend/ nor data/")
			}
			ds := lintCorpus(t, tc.bundle, tc.now)
			n, wrong := countCode(ds, tc.code, tc.sev)
			if n != tc.want {
				t.Errorf("%d findings of %s, want %d: %s", n, tc.code, tc.want, tc.why)
			}
			for _, d := range wrong {
				t.Errorf("want severity %s: %s", tc.sev, d)
			}
		})
	}
}
