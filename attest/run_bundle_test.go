package attest

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// TestLoadScope: the fixture bundle loaded from a folder below its root is the whole bundle (its
// root found above), InScope keeps the computations in that folder, and Find takes a name from
// the folder as from the root.
func TestLoadScope(t *testing.T) {
	root := filepath.Join("..", "testdata", "bundles", "attest", "bundle")
	l, err := Load(context.Background(), BundleRequest{Path: filepath.Join(root, "computations")})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Target.Root != root || l.Target.Scope() != "computations/" {
		t.Fatalf("root %q, scope %q; want %q and computations/", l.Target.Root, l.Target.Scope(), root)
	}
	all, in := l.Computations(), l.InScope()
	if len(in) == 0 {
		t.Fatal("no computation in computations/")
	}
	for _, c := range in {
		if !strings.HasPrefix(c.Concept.Path, "computations/") {
			t.Errorf("%s is in scope, outside computations/", c.Concept.Path)
		}
	}
	if len(all) < len(in) {
		t.Errorf("%d computations in the bundle, fewer than the %d in scope", len(all), len(in))
	}
	for _, name := range []string{"revenue-builtin", "computations/revenue-builtin", "computations/revenue-builtin.md"} {
		if c, err := l.Find(name); err != nil || c.ID != "computations/revenue-builtin" {
			t.Errorf("Find(%q): %v, %v; want computations/revenue-builtin", name, c, err)
		}
	}
	_, err = l.Find("nope")
	var nf *NotFoundError
	if !errors.As(err, &nf) || len(nf.IDs) != len(all) || nf.Root != root {
		t.Errorf("Find(nope): %v, want a *NotFoundError listing the %d computations of %s", err, len(all), root)
	}
}

// TestLoadErrors: a path in no bundle is a *okf.NotBundleError.
func TestLoadErrors(t *testing.T) {
	_, err := Load(context.Background(), BundleRequest{Path: filepath.Join(t.TempDir(), "none")})
	var nb *okf.NotBundleError
	if !errors.As(err, &nb) {
		t.Errorf("missing path: %v, want a *okf.NotBundleError", err)
	}
}
