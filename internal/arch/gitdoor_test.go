package arch

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// gitExec matches a Go expression that runs or looks up git by name.
var gitExec = regexp.MustCompile(`exec\.(Command|CommandContext|LookPath)\([^)]*"git"`)

// TestOneGitDoor keeps okf/git.go (okf.GitRepo) the only code that executes git: every other
// package asks it, so that no git runs without the repository named, discovery ceilinged and
// every program-naming config key neutralised. Tests may run git to build their repositories.
func TestOneGitDoor(t *testing.T) {
	root := "../.."
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if filepath.ToSlash(rel) == "okf/git.go" {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if m := gitExec.Find(src); m != nil {
			t.Errorf("%s runs git (%s): go through okf.OpenGitRepo", filepath.ToSlash(rel), m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if src, err := os.ReadFile(filepath.Join(root, "okf", "git.go")); err != nil || !gitExec.Match(src) {
		t.Errorf("okf/git.go no longer looks git up: the pattern is stale (%v)", err)
	}
}
