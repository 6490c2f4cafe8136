package trust

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/okf-tools/okf/okf"
)

// TestRunScope: a folder below the root is reported as part of its bundle (the root found above
// it), listing only the concepts in it, and the report matches Build on the bundle loaded whole.
func TestRunScope(t *testing.T) {
	root := filepath.Join("..", "testdata", "bundles", "trust", "mixed")
	now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	opts := Options{Now: now, ExpiringWithin: 30 * 24 * time.Hour}
	r, err := Run(context.Background(), Request{Path: filepath.Join(root, "lineage"), Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	if r.Scope != "lineage/" || len(r.Concepts) == 0 {
		t.Fatalf("scope %q with %d concepts, want lineage/ and its concepts", r.Scope, len(r.Concepts))
	}
	for _, c := range r.Concepts {
		if filepath.Dir(filepath.FromSlash(c.Path)) != "lineage" {
			t.Errorf("%s listed, outside lineage/", c.Path)
		}
	}
	b, err := okf.LoadDir(root, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Scope = "lineage/"
	want := Build(b, opts)
	if len(want.Concepts) != len(r.Concepts) {
		t.Fatalf("%d concepts, Build lists %d", len(r.Concepts), len(want.Concepts))
	}
	for i := range want.Concepts {
		if want.Concepts[i].ID != r.Concepts[i].ID || want.Concepts[i].Tier != r.Concepts[i].Tier {
			t.Errorf("concept %d: %s %s, Build has %s %s", i, r.Concepts[i].ID, r.Concepts[i].Tier, want.Concepts[i].ID, want.Concepts[i].Tier)
		}
	}
}

// TestRunErrors: a path in no bundle, a configuration with problems and a base in no git checkout
// are each their own typed error.
func TestRunErrors(t *testing.T) {
	_, err := Run(context.Background(), Request{Path: filepath.Join(t.TempDir(), "none")})
	var nb *okf.NotBundleError
	if !errors.As(err, &nb) {
		t.Errorf("missing path: %v, want a *okf.NotBundleError", err)
	}
	dir := t.TempDir()
	for p, s := range map[string]string{".okf.yaml": "no_such_key: 1\n", "a.md": "---\ntype: Metric\n---\n# A\n"} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err = Run(context.Background(), Request{Path: dir})
	var ce *okf.ConfigError
	if !errors.As(err, &ce) {
		t.Errorf("bad .okf.yaml: %v, want a *okf.ConfigError", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".okf.yaml"), []byte("# okf\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), Request{Path: dir, Base: "HEAD"})
	var be *BaseError
	if !errors.As(err, &be) || !errors.Is(err, ErrRevision) {
		t.Errorf("a base in no checkout: %v, want a *BaseError wrapping ErrRevision", err)
	}
}
