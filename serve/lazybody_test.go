package serve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/trust"
)

// TestTrustRowsAsFullLoad checks the trust facts serve gives (its bundle is loaded without concept
// bodies, which are parsed on the first read or trust call) against okf trust's analysis of the
// same bundle loaded whole: every concept's row must be the same, used_by and lineage included,
// which follow body links. Run on the test bundle, a bundle whose only reference is a body link,
// and every bundle of the corpus (corpusBundles).
func TestTrustRowsAsFullLoad(t *testing.T) {
	linked := t.TempDir()
	files := map[string]string{
		"index.md": "# KB\n\n* [A](a.md) - a\n* [B](b.md) - b\n",
		"a.md":     "---\ntype: Note\ntitle: A\nstatus: deprecated\n---\n# A\n\nOld.\n",
		"b.md":     "---\ntype: Note\ntitle: B\n---\n# B\n\nSee [a](a.md).\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(linked, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dirs := []string{"testdata/bundle", linked}
	dirs = append(dirs, corpusBundles(t)...)
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	usedByLink := false
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue // the corpus README
		}
		opts := &Options{Dir: dir, Now: func() time.Time { return now }, ExpiringWithin: 30 * 24 * time.Hour}
		b, texts, err := load(opts)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := build(b, texts, opts, nil)
		full, err := okf.LoadDir(dir, okf.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]*trust.Concept{}
		for _, c := range trust.Build(full, trust.Options{Now: now, ExpiringWithin: opts.ExpiringWithin}).Concepts {
			want[c.ID] = c
		}
		for _, d := range s.docs[:s.concepts] {
			got, _ := json.Marshal(s.rowOf(d))
			exp, _ := json.Marshal(want[d.id])
			if string(got) != string(exp) {
				t.Errorf("%s: %s\nserve %s\ntrust %s", dir, d.id, got, exp)
			}
			if dir == linked && d.id == "a" && len(s.rowOf(d).UsedBy) == 1 {
				usedByLink = true
			}
		}
	}
	if !usedByLink {
		t.Error("a, linked from b's body only, is not used by b")
	}
}
