//go:build unix

package okf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIntoGitPastPathMax: a committed link into .git is never read (README, Security, "Never a
// repository's files"), even where resolving it the way intoGit does fails and os.Root's walk,
// one component at a time, would still open it: folders 16 × 253 bytes deep (a path git checks
// out) are past PATH_MAX once the checkout's absolute path is in front, so lstat says
// ENAMETOOLONG. .okf.yaml -> D1/…/D8/h, h -> D9/…/D16/up/.git/config, up -> ../ × 16: the read is
// refused (intoGit fails closed), as the same Root opened on "." refuses it.
func TestIntoGitPastPathMax(t *testing.T) {
	base := filepath.Join(t.TempDir(), strings.Repeat("p", 80), "co")
	if err := os.MkdirAll(filepath.Join(base, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, ".git", "config"), []byte("[http]\n\textraheader = AUTHORIZATION: basic GITSECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	name := func(i int) string { return strings.Repeat("d", 250) + string(rune('a'+i)) + "x" }
	var head, tail, up []string
	for i := 0; i < 16; i++ {
		if i < 8 {
			head = append(head, name(i))
		} else {
			tail = append(tail, name(i))
		}
		up = append(up, "..")
	}
	// Made with relative paths from inside, as git's checkout makes them.
	t.Chdir(base)
	for _, d := range append(append([]string(nil), head...), tail...) {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Chdir(d)
	}
	if err := os.Symlink(strings.Join(up, "/"), "up"); err != nil {
		t.Fatal(err)
	}
	t.Chdir(base)
	for _, d := range head {
		t.Chdir(d)
	}
	if err := os.Symlink(strings.Join(tail, "/")+"/up/.git/config", "h"); err != nil {
		t.Fatal(err)
	}
	t.Chdir(base)
	if err := os.Symlink(strings.Join(head, "/")+"/h", ConfigName); err != nil {
		t.Fatal(err)
	}

	// Control: the bundle named by a relative path, whose resolution fits in PATH_MAX.
	rel, err := OpenFileSystem(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rel.Close()
	if data, err := rel.ReadFile(ConfigName); !errors.Is(err, ErrIntoGit) {
		t.Fatalf("control (relative root): ReadFile = %q, %v; want ErrIntoGit", data, err)
	}

	abs, err := OpenFileSystem(base, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer abs.Close()
	data, err := abs.ReadFile(ConfigName)
	if strings.Contains(string(data), "GITSECRET") {
		t.Fatalf("the bundle's Root on %d-byte %q read .git/config through .okf.yaml: %q", len(base), "…/co", data)
	}
	if !errors.Is(err, ErrIntoGit) && !errors.Is(err, ErrOutside) {
		t.Errorf("ReadFile(.okf.yaml) = %v; want a refusal", err)
	}
}
