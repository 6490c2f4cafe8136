package skill

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current code (then review every line by hand)")

func load(t *testing.T, dir string) *okf.Bundle {
	t.Helper()
	o, err := okf.Open(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := o.Load(okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func build(t *testing.T, dir string, o Options) *Skill {
	t.Helper()
	s, err := Build(load(t, dir), o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGolden: okf skill on the fixture bundle writes exactly the files of testdata/golden, byte for
// byte, and no other.
func TestGolden(t *testing.T) {
	out := t.TempDir()
	s := build(t, "testdata/bundle", Options{BundleName: "shop"})
	w, err := Write(out, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Findings) != 0 {
		t.Errorf("findings: %+v", w.Findings)
	}
	got := readTree(t, filepath.Join(out, "shop"))
	golden := "testdata/golden/shop"
	if *update {
		os.RemoveAll(golden)
		for p, data := range got {
			fp := filepath.Join(golden, filepath.FromSlash(p))
			os.MkdirAll(filepath.Dir(fp), 0o755)
			if err := os.WriteFile(fp, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := readTree(t, golden)
	for p, data := range want {
		if got[p] != data {
			t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", p, got[p], data)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s written, not in the golden files", p)
		}
	}
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var _ = strings.Contains
