package migrate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okf-tools/okf/migrate"
	"github.com/okf-tools/okf/okf"
)

// TestMigrateRequest: planning writes nothing, even while another writer holds the lock; writing
// takes the lock, migrates the v0.1 timestamp (§13) and logs it, and a second run has nothing to do.
func TestMigrateRequest(t *testing.T) {
	src := "---\ntype: A\ntimestamp: 2026-01-15\n---\n"
	dir := bundle(t, map[string]string{"a.md": src})
	unlock, err := okf.LockBundle(dir, "another writer")
	if err != nil {
		t.Fatal(err)
	}
	res, err := migrate.Migrate(context.Background(), migrate.Request{Path: dir, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Plan.Changes) == 0 || res.Plan.Changes[0].Path != "a.md" || res.Written != nil {
		t.Fatalf("plan %+v, written %v: want a.md planned, nothing written", res.Plan.Changes, res.Written)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.md")); string(got) != src {
		t.Fatal("planning wrote a.md")
	}
	if _, err := migrate.Migrate(context.Background(), migrate.Request{Path: dir, Now: now, Write: true}); !errors.Is(err, okf.ErrLocked) {
		t.Errorf("writing while locked: %v, want okf.ErrLocked", err)
	}
	unlock()
	res, err = migrate.Migrate(context.Background(), migrate.Request{Path: dir, Now: now, Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Written, ",") != "a.md,log.md" || len(res.Refused) != 0 {
		t.Fatalf("written %v, refused %v: want a.md and log.md", res.Written, res.Refused)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.md")); strings.Contains(string(got), "timestamp:") || !strings.Contains(string(got), "generated:") {
		t.Errorf("a.md after the migration:\n%s", got)
	}
	res, err = migrate.Migrate(context.Background(), migrate.Request{Path: dir, Now: now})
	if err != nil || res.Plan.Changed() {
		t.Errorf("a second run: %v, changes %+v; want none", err, res.Plan.Changes)
	}
}

// TestMigrateRefusesPart: a folder below the bundle's root is refused, naming the root; a path in
// no bundle and a configuration with problems are their own errors.
func TestMigrateRefusesPart(t *testing.T) {
	dir := bundle(t, map[string]string{".okf.yaml": "# okf\n", "sub/a.md": "---\ntype: A\n---\n"})
	_, err := migrate.Migrate(context.Background(), migrate.Request{Path: filepath.Join(dir, "sub")})
	var pe *okf.PathError
	if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "run it on") {
		t.Errorf("a subfolder: %v, want a *okf.PathError naming the root", err)
	}
	var nb *okf.NotBundleError
	if _, err := migrate.Migrate(context.Background(), migrate.Request{Path: filepath.Join(dir, "none")}); !errors.As(err, &nb) {
		t.Errorf("a missing path: %v, want a *okf.NotBundleError", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".okf.yaml"), []byte("no_such_key: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ce *okf.ConfigError
	if _, err := migrate.Migrate(context.Background(), migrate.Request{Path: dir}); !errors.As(err, &ce) {
		t.Errorf("a bad .okf.yaml: %v, want a *okf.ConfigError", err)
	}
}
