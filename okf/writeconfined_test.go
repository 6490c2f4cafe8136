//go:build unix

package okf

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// confinedLayout builds, under a fresh folder, a checkout co (a folder holding .git) beside a folder
// outside holding a file a pull request must not overwrite (outside/bashrc), and another checkout
// (other, with its own .git), and returns the top folder. Every link is made at test time.
func confinedLayout(t *testing.T) string {
	t.Helper()
	top := t.TempDir()
	for _, d := range []string{"co/.git", "co/sub", "co/build", "outside", "other/.git", "other/sub/.git"} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"outside/bashrc", "other/README", "co/sub/real.txt"} {
		if err := os.WriteFile(filepath.Join(top, f), []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return top
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestWriteFileAtomicConfined: whatever a pull request committed at a path the user names (a link
// to a file or folder outside the checkout, relative or absolute, chained, dangling, through a
// folder, into another checkout), WriteFileAtomic refuses with an ErrOutside naming the path, and
// nothing outside the checkout is changed or created. The links that stay inside are written through.
func TestWriteFileAtomicConfined(t *testing.T) {
	refused := []struct {
		name  string
		links [][2]string // link path (under co) -> target
		write string      // under co
	}{
		{"file link, absolute", [][2]string{{"report.sarif", "TOP/outside/bashrc"}}, "report.sarif"},
		{"file link, relative", [][2]string{{"report.sarif", "../outside/bashrc"}}, "report.sarif"},
		{"file link to a new file outside", [][2]string{{"report.sarif", "../outside/new"}}, "report.sarif"},
		{"chained links", [][2]string{{"report.sarif", "hop"}, {"hop", "build/hop2"}, {"build/hop2", "../../outside/bashrc"}}, "report.sarif"},
		{"folder link", [][2]string{{"out", "TOP/outside"}}, "out/bashrc"},
		{"folder link, new file", [][2]string{{"out", "../outside"}}, "out/new"},
		{"folder link deeper down", [][2]string{{"a/b", "../../outside"}}, "a/b/bashrc"},
		{"folder link to a folder link", [][2]string{{"out", "build/x"}, {"build/x", "../../outside"}}, "out/new"},
		{"link to another checkout", [][2]string{{"report.sarif", "../other/README"}}, "report.sarif"},
		{"folder link into another checkout's repository", [][2]string{{"docs", "../other/sub"}}, "docs/new"},
		{"link climbing out with ..", [][2]string{{"sub/r", "../../outside/bashrc"}}, "sub/r"},
		{"link to a device outside", [][2]string{{"report.sarif", "/dev/null"}}, "report.sarif"},
		{"link to the checkout's parent", [][2]string{{"up", ".."}}, "up/outside/bashrc"},
		// Inside the checkout, but its repository: .git/config (where CI keeps credentials) or a hook.
		{"link into the checkout's .git", [][2]string{{"report.sarif", ".git/config"}}, "report.sarif"},
		{"folder link into the checkout's .git", [][2]string{{"hooks", ".git"}}, "hooks/pre-commit"},
		{"link into a submodule's repository", [][2]string{{"report.sarif", ".git/modules/sub/config"}}, "report.sarif"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			top := confinedLayout(t)
			co := filepath.Join(top, "co")
			for _, l := range tc.links {
				symlink(t, strings.Replace(l[1], "TOP", top, 1), filepath.Join(co, l[0]))
			}
			name := filepath.Join(co, tc.write)
			err := WriteFileAtomic(name, []byte("pwned"), 0o644)
			var pe *fs.PathError
			if !errors.Is(err, ErrOutside) || !errors.As(err, &pe) || pe.Path != name {
				t.Fatalf("error %v, want an ErrOutside naming %s", err, name)
			}
			if !strings.Contains(err.Error(), "the symbolic link") || !strings.Contains(err.Error(), "not written") {
				t.Errorf("error %q does not say why", err)
			}
			for _, f := range []string{"outside/bashrc", "other/README"} {
				if got := readString(t, filepath.Join(top, f)); got != "keep" {
					t.Errorf("%s now holds %q", f, got)
				}
			}
			if names := entries(t, filepath.Join(top, "outside")); len(names) != 1 {
				t.Errorf("outside/ now holds %v", names)
			}
			if names := entries(t, filepath.Join(top, "other")); len(names) != 3 {
				t.Errorf("other/ now holds %v", names)
			}
		})
	}

	// Relative names are read from the working directory, as a user types them in CI.
	t.Run("relative name", func(t *testing.T) {
		top := confinedLayout(t)
		co, bashrc := filepath.Join(top, "co"), filepath.Join(top, "outside", "bashrc")
		symlink(t, "../outside/bashrc", filepath.Join(co, "rel.sarif"))
		t.Chdir(co)
		if err := WriteFileAtomic("rel.sarif", []byte("pwned"), 0o644); !errors.Is(err, ErrOutside) {
			t.Errorf("error %v, want ErrOutside", err)
		}
		if got := readString(t, bashrc); got != "keep" {
			t.Errorf("bashrc holds %q", got)
		}
	})

	allowed := []struct {
		name  string
		links [][2]string
		write string
		lands string // where the data goes, under top
	}{
		{"no link", nil, "report.sarif", "co/report.sarif"},
	}
	// A link that stays in the checkout is refused too: inside the checkout is not the same as
	// written by the pull request (a repository CI checked out inside it, a build's .venv/bin).
	inside := []struct {
		name  string
		links [][2]string
		write string
		lands string // where the data would go, under top
	}{
		{"link inside", [][2]string{{"report.sarif", "sub/real.txt"}}, "report.sarif", "co/sub/real.txt"},
		{"absolute link inside", [][2]string{{"report.sarif", "CO/sub/real.txt"}}, "report.sarif", "co/sub/real.txt"},
		{"folder link inside", [][2]string{{"out", "build"}}, "out/r.sarif", "co/build/r.sarif"},
		{"dangling link inside", [][2]string{{"report.sarif", "build/new.sarif"}}, "report.sarif", "co/build/new.sarif"},
		{"out and back in", [][2]string{{"report.sarif", "../co/sub/real.txt"}}, "report.sarif", "co/sub/real.txt"},
		{"into a nested repository", [][2]string{{"report.sarif", "sub/tool/run.sh"}}, "report.sarif", "co/sub/tool/run.sh"},
	}
	for _, tc := range inside {
		t.Run(tc.name, func(t *testing.T) {
			top := confinedLayout(t)
			co := filepath.Join(top, "co")
			os.MkdirAll(filepath.Join(co, "sub", "tool", ".git"), 0o755)
			os.WriteFile(filepath.Join(co, "sub", "tool", "run.sh"), []byte("keep"), 0o755)
			for _, l := range tc.links {
				symlink(t, strings.Replace(l[1], "CO", co, 1), filepath.Join(co, l[0]))
			}
			before, _ := os.ReadFile(filepath.Join(top, tc.lands))
			if err := WriteFileAtomic(filepath.Join(co, tc.write), []byte("new"), 0o644); !errors.Is(err, ErrOutside) {
				t.Fatalf("error %v, want ErrOutside", err)
			}
			if after, _ := os.ReadFile(filepath.Join(top, tc.lands)); string(after) != string(before) {
				t.Errorf("%s holds %q, was %q", tc.lands, after, before)
			}
		})
	}
	for _, tc := range allowed {
		t.Run(tc.name, func(t *testing.T) {
			top := confinedLayout(t)
			co := filepath.Join(top, "co")
			for _, l := range tc.links {
				symlink(t, strings.Replace(l[1], "CO", co, 1), filepath.Join(co, l[0]))
			}
			if err := WriteFileAtomic(filepath.Join(co, tc.write), []byte("new"), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := readString(t, filepath.Join(top, tc.lands)); got != "new" {
				t.Errorf("%s holds %q", tc.lands, got)
			}
			for _, l := range tc.links {
				if fi, err := os.Lstat(filepath.Join(co, l[0])); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("%s is no longer a link", l[0])
				}
			}
		})
	}
}

// TestWriteFileAtomicCheckoutFound: the checkout is the nearest folder holding .git on the path
// as named, reached through no link inside a checkout: a link above it (a runner's /home pointing
// elsewhere) is the system's, and a .git the path only reaches through a pull request's link is
// the link target's, not the checkout. With no checkout, the named file's folder bounds the write.
func TestWriteFileAtomicCheckoutFound(t *testing.T) {
	top := confinedLayout(t)
	bashrc := filepath.Join(top, "outside", "bashrc")

	// A link above the checkout: /top/home -> /top/real-home holding the checkout.
	if err := os.MkdirAll(filepath.Join(top, "real-home", "ci", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "real-home", filepath.Join(top, "home"))
	ci := filepath.Join(top, "home", "ci")
	if err := WriteFileAtomic(filepath.Join(ci, "plain.sarif"), []byte("new"), 0o644); err != nil {
		t.Errorf("a plain file in a checkout reached through a link above it: %v", err)
	}
	symlink(t, "../../outside/bashrc", filepath.Join(ci, "evil.sarif"))
	if err := WriteFileAtomic(filepath.Join(ci, "evil.sarif"), []byte("pwned"), 0o644); !errors.Is(err, ErrOutside) {
		t.Errorf("a link out of a checkout reached through a link above it: error %v, want ErrOutside", err)
	}

	// A submodule is a checkout of its own: the nearest one bounds the write.
	co := filepath.Join(top, "co")
	if err := os.MkdirAll(filepath.Join(co, "mod", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../sub/real.txt", filepath.Join(co, "mod", "r"))
	if err := WriteFileAtomic(filepath.Join(co, "mod", "r"), []byte("x"), 0o644); !errors.Is(err, ErrOutside) {
		t.Errorf("a link out of the nearest checkout (a submodule): error %v, want ErrOutside", err)
	}

	// No checkout: the folder of the named path bounds the write.
	free := t.TempDir()
	symlink(t, bashrc, filepath.Join(free, "evil"))
	if err := WriteFileAtomic(filepath.Join(free, "evil"), []byte("pwned"), 0o644); !errors.Is(err, ErrOutside) {
		t.Errorf("no checkout, a link out of the folder: error %v, want ErrOutside", err)
	}
	if got := readString(t, bashrc); got != "keep" {
		t.Errorf("bashrc holds %q", got)
	}
	// A regular path outside any checkout, named with .. from inside one, is the user's choice.
	t.Chdir(co)
	if err := WriteFileAtomic("../outside/fresh", []byte("ok"), 0o644); err != nil {
		t.Errorf("a path outside the checkout named by the user: %v", err)
	}
}

// TestCheckLinkedOutMissing: a bundle folder that does not exist yet (okf gen --out) but whose path
// passes through a link leading out of its checkout is refused before anything creates it, and a
// .git reached only through such a link is not taken for the checkout.
func TestCheckLinkedOutMissing(t *testing.T) {
	top := confinedLayout(t)
	co := filepath.Join(top, "co")
	symlink(t, "../outside", filepath.Join(co, "out"))
	for _, dir := range []string{"out/bundle", "out/a/b/bundle"} {
		if err := CheckLinkedOut(filepath.Join(co, dir)); !errors.Is(err, ErrOutside) {
			t.Errorf("%s: error %v, want ErrOutside", dir, err)
		}
	}
	symlink(t, "../other", filepath.Join(co, "docs"))
	if err := CheckLinkedOut(filepath.Join(co, "docs", "sub")); !errors.Is(err, ErrOutside) {
		t.Errorf("docs/sub through a link to another checkout holding .git: error %v, want ErrOutside", err)
	}
	if err := CheckLinkedOut(filepath.Join(co, "sub", "new")); err != nil {
		t.Errorf("a missing folder with no link: %v", err)
	}
}

// TestWriteFileWithin: a file okf names itself inside a bundle (the default baseline) must stay in
// the bundle, not only in the checkout: a link to elsewhere in the checkout is refused too, one
// inside the bundle is written through, and a plain file is written.
func TestWriteFileWithin(t *testing.T) {
	top := confinedLayout(t)
	co := filepath.Join(top, "co")
	bundle := filepath.Join(co, "sub")
	name := filepath.Join(bundle, ".okf-baseline.json")
	if err := WriteFileWithin(bundle, name, []byte("plain"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(name)
	symlink(t, "../build/base.json", name)
	err := WriteFileWithin(bundle, name, []byte("x"), 0o644)
	var pe *fs.PathError
	if !errors.Is(err, ErrOutside) || !errors.As(err, &pe) || pe.Path != name {
		t.Errorf("a link leaving the bundle but not the checkout: error %v, want an ErrOutside naming it", err)
	}
	if _, err := os.Lstat(filepath.Join(co, "build", "base.json")); err == nil {
		t.Error("the file outside the bundle was created")
	}
	os.Remove(name)
	symlink(t, "real.txt", name)
	if err := WriteFileWithin(bundle, name, []byte("through"), 0o644); !errors.Is(err, ErrOutside) {
		t.Errorf("a link inside the bundle (in a checkout): error %v, want ErrOutside", err)
	}
	if got := readString(t, filepath.Join(bundle, "real.txt")); got == "through" {
		t.Errorf("real.txt was written through the link")
	}
}
