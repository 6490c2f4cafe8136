package generate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// TestGenerateRequest: the seed case (TestSeed) through the one call. A preview writes nothing;
// Strict withholds the run because one concept's post is missing; a run writes the golden bundle;
// a run while another writer holds the lock, bad options and a bad .okf.yaml at --out are each
// their own error.
func TestGenerateRequest(t *testing.T) {
	out := filepath.Join(t.TempDir(), "kb")
	opts := seedOptions(t, filepath.Join(contentDir, "posts"), out, t0)
	res, err := Generate(context.Background(), GenRequest{Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Plan.Files) == 0 || res.Written != 0 {
		t.Fatalf("preview: %d files planned, %d written; want some planned, none written", len(res.Plan.Files), res.Written)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a preview made %s (%v)", out, err)
	}
	res, err = Generate(context.Background(), GenRequest{Options: opts, Write: true, Strict: true})
	if err != nil || !res.Withheld || res.Written != 0 {
		t.Fatalf("strict: %v, withheld %v, written %d; want withheld, nothing written", err, res != nil && res.Withheld, res.Written)
	}
	if _, err := os.Stat(filepath.Join(out, "index.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a withheld run wrote index.md")
	}
	res, err = Generate(context.Background(), GenRequest{Options: opts, Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Written != len(res.Plan.Files) {
		t.Errorf("wrote %d of %d files", res.Written, len(res.Plan.Files))
	}
	got, want := readAll(t, out), readAll(t, goldenDir)
	for p, text := range want {
		if got[p] != text {
			t.Errorf("%s differs from the golden bundle", p)
		}
	}

	unlock, err := okf.LockBundle(out, "another writer")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(context.Background(), GenRequest{Options: opts, Write: true}); !errors.Is(err, okf.ErrLocked) {
		t.Errorf("a run while locked: %v, want okf.ErrLocked", err)
	}
	unlock()
	bad := opts
	bad.Actor = "nobody"
	var oe *OptionsError
	if _, err := Generate(context.Background(), GenRequest{Options: bad, Write: true}); !errors.As(err, &oe) {
		t.Errorf("a bad actor: %v, want an *OptionsError", err)
	}
	if err := os.WriteFile(filepath.Join(out, ".okf.yaml"), []byte("no_such_key: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ce *okf.ConfigError
	if _, err := Generate(context.Background(), GenRequest{Options: opts}); !errors.As(err, &ce) {
		t.Errorf("a bad .okf.yaml at the bundle: %v, want an *okf.ConfigError", err)
	}
}

// TestIndexRequest: an index removed is planned again and written only when asked; a folder below
// the root is its scope; a file is refused.
func TestIndexRequest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	copyTree(t, goldenDir, dir)
	idx := filepath.Join(dir, "concepts", "index.md")
	if err := os.Remove(idx); err != nil {
		t.Fatal(err)
	}
	res, err := Index(context.Background(), IndexRequest{Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) != 1 || res.Changes[0].Path != "concepts/index.md" || res.Written != 0 {
		t.Fatalf("plan %v, written %d; want concepts/index.md planned, nothing written", res.Changes, res.Written)
	}
	if _, err := os.Stat(idx); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("planning wrote concepts/index.md")
	}
	res, err = Index(context.Background(), IndexRequest{Path: filepath.Join(dir, "concepts"), Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Scope != "concepts/" || res.Written != 1 {
		t.Fatalf("scope %q, written %d; want concepts/ and 1", res.Scope, res.Written)
	}
	if _, err := os.Stat(idx); err != nil {
		t.Fatal(err)
	}
	if res, err := Index(context.Background(), IndexRequest{Path: dir}); err != nil || len(res.Changes) != 0 {
		t.Errorf("a second run: %v, %d changes; want none", err, len(res.Changes))
	}
	var pe *okf.PathError
	if res, err := Index(context.Background(), IndexRequest{Path: idx}); !errors.As(err, &pe) || res != nil {
		t.Errorf("a file: %v, want an *okf.PathError and no result", err)
	}
}
