package okf

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// corpusDir is the folder of real bundles written by other people that the corpus tests read: the
// whole corpus at ../shared/corpus when it is there (next to the repository, see CONTRIBUTING.md),
// else the slice of it committed in testdata/corpus, so a plain clone runs these tests too.
func corpusDir(t testing.TB) string {
	t.Helper()
	if dir := filepath.Join("..", "..", "shared", "corpus"); isDir(dir) {
		return dir
	}
	return filepath.Join("..", "testdata", "corpus")
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// verdictRow is a row of a corpus README's table: | bundle | source | licence | verdict |.
var verdictRow = regexp.MustCompile(`^\| ([A-Za-z0-9_.-]+) \| [^|]+ \| [^|]+ \| (conformant|not conformant: (\d+) errors?)\b`)

// corpusVerdicts reads the §11 verdict of each bundle from the corpus's README (the corpus
// maintainers' reading of the spec, not okf's output): the number of errors okf must report. Every
// bundle folder must have a row, so a bundle added without a verdict fails here.
func corpusVerdicts(t testing.TB, dir string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, line := range strings.Split(string(data), "\n") {
		m := verdictRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n := 0
		if m[3] != "" {
			n, _ = strconv.Atoi(m[3])
		}
		want[m[1]] = n
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := want[e.Name()]; e.IsDir() && !ok {
			t.Errorf("%s: bundle %s has no verdict row in its README", dir, e.Name())
		}
	}
	if len(want) == 0 {
		t.Fatalf("%s/README.md lists no verdicts", dir)
	}
	return want
}

// TestCorpusConformance checks the §11 verdicts the corpus README gives for each bundle.
func TestCorpusConformance(t *testing.T) {
	dir := corpusDir(t)
	for name, n := range corpusVerdicts(t, dir) {
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
