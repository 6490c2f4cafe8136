package trust

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/okf-tools/okf/internal/synth"
	"github.com/okf-tools/okf/okf"
)

// writeAll renders a report in every format.
func writeAll(t *testing.T, r *Report) []byte {
	t.Helper()
	var out bytes.Buffer
	for _, f := range []string{"json", "text", "markdown", "html"} {
		if err := Write(&out, r, f, WriteOptions{FullCommand: "okf trust"}); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	return out.Bytes()
}

// buildBoth makes the report of the bundle at dir with Build and with a Stream.
func buildBoth(t *testing.T, dir string, opts Options) (built, streamed *Report) {
	t.Helper()
	b, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := NewStream(opts)
	sb, err := okf.LoadDir(dir, okf.LoadOptions{OnConcept: s.OnConcept})
	if err != nil {
		t.Fatal(err)
	}
	return Build(b, opts), s.Finish(sb)
}

// TestStreamMatchesBuild: on every test bundle, the corpus when it is there and a generated
// bundle, a Stream's report is Build's, in every format, byte for byte; so is a comparison with a
// base built either way.
func TestStreamMatchesBuild(t *testing.T) {
	var dirs []string
	for _, pattern := range []string{filepath.Join("..", "testdata", "bundles", "*", "*"), filepath.Join("..", "..", "shared", "corpus", "*")} {
		m, _ := filepath.Glob(pattern)
		for _, d := range m {
			if info, err := os.Stat(d); err == nil && info.IsDir() {
				dirs = append(dirs, d)
			}
		}
	}
	syn := t.TempDir()
	if _, err := synth.Write(syn, synth.Options{Concepts: 300, PerDir: 40, BodyBytes: 800}); err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, syn)
	if len(dirs) < 10 {
		t.Fatalf("found only %d bundles", len(dirs))
	}
	opts := Options{Now: fixtureNow, ExpiringWithin: okf.DefaultExpiringWindow}
	var prev *Report
	for _, dir := range dirs {
		built, streamed := buildBoth(t, dir, opts)
		if len(built.Concepts) == 0 {
			continue
		}
		if a, b := writeAll(t, built), writeAll(t, streamed); !bytes.Equal(a, b) {
			t.Errorf("%s: the Stream's report differs from Build's:\n%s", dir, firstDiff(a, b))
		}
		if prev != nil {
			base1, base2 := buildBoth(t, dirs[0], opts)
			built.Compare(base1, "base")
			streamed.Compare(base2, "base")
			if a, b := writeAll(t, built), writeAll(t, streamed); !bytes.Equal(a, b) {
				t.Errorf("%s against a base: the Stream's report differs from Build's:\n%s", dir, firstDiff(a, b))
			}
		}
		prev = built
	}
}

// firstDiff shows where two outputs part.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-200, 0)
	return "built:    " + string(a[lo:min(i+200, len(a))]) + "\nstreamed: " + string(b[lo:min(i+200, len(b))])
}
