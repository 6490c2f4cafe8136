package skill

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// TestLoadFromFolderBelowRoot: a folder below the root makes the skill of the whole bundle, the
// one Build makes of the bundle loaded from its root.
func TestLoadFromFolderBelowRoot(t *testing.T) {
	l, err := Load(context.Background(), Request{Path: "testdata/bundle/metrics", Options: Options{BundleName: "shop"}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	want := build(t, "testdata/bundle", Options{BundleName: "shop"})
	if l.Bundle.Root != "testdata/bundle" || l.Skill.Name != want.Name || l.Skill.Concepts != want.Concepts || l.Skill.Body() != want.Body() {
		t.Errorf("from metrics/: root %q, skill %q with %d concepts; want testdata/bundle, %q with %d",
			l.Bundle.Root, l.Skill.Name, l.Skill.Concepts, want.Name, want.Concepts)
	}
}

// TestLoadErrors: each way a run fails has its own type, which okf skill and okf budget map to
// their exit codes.
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "note.txt"), []byte("no markdown"), 0o644); err != nil {
		t.Fatal(err)
	}
	var nb *okf.NotBundleError
	var pe *okf.PathError
	if _, err := Load(context.Background(), Request{Path: dir}); !errors.As(err, &nb) && !errors.As(err, &pe) {
		t.Errorf("a folder with no Markdown: %T %v, want *okf.NotBundleError or *okf.PathError", err, err)
	}
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "index.md"), []byte("# x\n"), 0o644)
	os.WriteFile(filepath.Join(bad, ".okf.yaml"), []byte("nosuchkey: 1\n"), 0o644)
	var ce *okf.ConfigError
	if _, err := Load(context.Background(), Request{Path: bad}); !errors.As(err, &ce) {
		t.Errorf("a .okf.yaml with an unknown key: %T %v, want *okf.ConfigError", err, err)
	}
	var be *BuildError
	if _, err := Load(context.Background(), Request{Path: "testdata/bundle", Options: Options{Name: "Not A Name"}}); !errors.As(err, &be) {
		t.Errorf("an invalid name: %T %v, want *BuildError", err, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, Request{Path: "testdata/bundle"}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled run: %v, want context.Canceled", err)
	}
}
