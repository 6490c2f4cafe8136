package trust

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// gitRepo makes a temporary repository with the bundle in kb/ and returns the repository folder.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git absent")
	}
	return t.TempDir()
}

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if text == "" {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBase compares a bundle with its previous commit: the second commit changes tiers, a
// status and a stale_after, adds and removes a concept, and edits a verified concept's text
// without a new verification.
func TestBase(t *testing.T) {
	repo := gitRepo(t)
	gitRun(t, repo, "init", "-q", "-b", "main")
	writeFiles(t, repo, map[string]string{
		"README.txt":  "not part of the bundle\n",
		"kb/index.md": "# KB\n",
		"kb/a.md":     "---\ntype: Note\n---\nUnverified at first.\n",
		"kb/b.md":     "---\ntype: Note\nverified: { by: human:ana, at: 2026-11-01T00:00:00Z }\n---\nReviewed.\n",
		"kb/c.md":     "---\ntype: Note\nverified: { by: human:ana, at: 2026-11-01T00:00:00Z }\nstale_after: 2027-06-01T00:00:00Z\n---\nFresh.\n",
		"kb/e.md":     "---\ntype: Note\n---\nRemoved later.\n",
		"kb/f.md":     "---\ntype: Note\n---\nDeprecated later.\n",
		"kb/g.md":     "---\ntype: Note\ngenerated: { by: agent/v1, at: 2026-10-01T00:00:00Z }\nverified: { by: human:ana, at: 2026-11-01T00:00:00Z }\n---\nOriginal text.\n",
		"kb/h.md":     "---\ntype: Note\ngenerated: { by: agent/v1, at: 2026-10-01T00:00:00Z }\nverified: { by: human:ana, at: 2026-11-01T00:00:00Z }\n---\nRegenerated later.\n",
		"kb/sub/s.md": "---\ntype: Note\n---\nUntouched.\n",
	})
	gitRun(t, repo, "add", "-A")
	gitRun(t, repo, "commit", "-q", "-m", "first")
	writeFiles(t, repo, map[string]string{
		"kb/a.md": "---\ntype: Note\nverified: { by: human:bo, at: 2026-11-20T00:00:00Z }\n---\nNow reviewed.\n",
		"kb/b.md": "---\ntype: Note\nverified: { by: process:nightly, at: 2026-11-21T00:00:00Z }\n---\nOnly a machine now.\n",
		"kb/c.md": "---\ntype: Note\nverified: { by: human:ana, at: 2026-11-01T00:00:00Z }\nstale_after: 2026-11-15T00:00:00Z\n---\nFresh.\n",
		"kb/d.md": "---\ntype: Note\n---\nAdded.\n",
		"kb/e.md": "",
		"kb/f.md": "---\ntype: Note\nstatus: deprecated\n---\nDeprecated later.\n",
		"kb/g.md": "---\ntype: Note\ngenerated: { by: agent/v1, at: 2026-10-01T00:00:00Z }\nverified: { by: human:ana, at: 2026-11-01T00:00:00Z }\n---\nEdited text, same stamps.\n",
		"kb/h.md": "---\ntype: Note\ngenerated: { by: agent/v1, at: 2026-11-10T00:00:00Z }\nverified: { by: human:ana, at: 2026-11-01T00:00:00Z }\n---\nRegenerated.\n",
	})
	gitRun(t, repo, "add", "-A")
	gitRun(t, repo, "commit", "-q", "-m", "second")

	dir := filepath.Join(repo, "kb")
	head, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	base, err := LoadRevision(dir, "HEAD~1", okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var baseIDs []string
	for _, c := range base.Concepts {
		baseIDs = append(baseIDs, c.ID)
	}
	if want := []string{"a", "b", "c", "e", "f", "g", "h", "sub/s"}; !slices.Equal(baseIDs, want) {
		t.Fatalf("base concepts = %q, want %q (read from kb/ at HEAD~1 only)", baseIDs, want)
	}

	opts := Options{Now: fixtureNow}
	r := Build(head, opts)
	r.Compare(Build(base, opts), "HEAD~1")
	ch := r.Changes
	check := func(what string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s = %q, want %q", what, got, want)
		}
	}
	check("added", ch.Added, []string{"d"})
	check("removed", ch.Removed, []string{"e"})
	wantTier := []Change{{ID: "a", From: "unverified", To: "human-reviewed"}, {ID: "b", From: "human-reviewed", To: "machine-confirmed"}}
	if !slices.Equal(ch.Tier, wantTier) {
		t.Errorf("tier changes = %+v, want %+v", ch.Tier, wantTier)
	}
	if want := []Change{{ID: "f", From: "stable", To: "deprecated"}}; !slices.Equal(ch.Status, want) {
		t.Errorf("status changes = %+v, want %+v", ch.Status, want)
	}
	check("newly stale", ch.NewlyStale, []string{"c"})
	// g: text edited, verification unchanged; h: generated.at moved past the verification (D12).
	check("changed since verified", ch.ChangedSinceVerified, []string{"g", "h"})

	// A filter keeps a concept whose tier left the filtered tier.
	r = Build(head, Options{Now: fixtureNow, Tiers: []okf.Tier{okf.Unverified}})
	r.Compare(Build(base, Options{Now: fixtureNow, Tiers: []okf.Tier{okf.Unverified}}), "HEAD~1")
	if len(r.Changes.Tier) != 1 || r.Changes.Tier[0].ID != "a" {
		t.Errorf("with --tier unverified, tier changes = %+v, want a's", r.Changes.Tier)
	}

	// The repository root as the bundle: paths keep their folder.
	whole, err := LoadRevision(repo, "HEAD~1", okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if whole.Concept("kb/e") == nil || whole.Concept("kb/d") != nil {
		t.Errorf("bundle at the repository root: want kb/e (removed later) and no kb/d (added later) at HEAD~1")
	}
	// A folder that did not exist at the revision is an empty bundle: everything is added.
	gitRun(t, repo, "mv", "kb/sub", "kb2")
	gitRun(t, repo, "commit", "-q", "-m", "third")
	moved, err := LoadRevision(filepath.Join(repo, "kb2"), "HEAD~1", okf.LoadOptions{})
	if err != nil {
		t.Fatalf("folder absent at the revision: %v", err)
	}
	if len(moved.Concepts) != 0 {
		t.Errorf("folder absent at the revision: %d concepts, want 0", len(moved.Concepts))
	}

	if _, err := LoadRevision(dir, "no-such-ref", okf.LoadOptions{}); !errors.Is(err, ErrRevision) {
		t.Errorf("unknown ref: err = %v, want ErrRevision", err)
	}
	if _, err := LoadRevision(t.TempDir(), "HEAD", okf.LoadOptions{}); !errors.Is(err, ErrRevision) {
		t.Errorf("outside a repository: err = %v, want ErrRevision", err)
	}
}
