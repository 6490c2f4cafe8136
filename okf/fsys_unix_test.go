//go:build unix

package okf

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRootRefusesNonRegularWithoutBlocking(t *testing.T) {
	bundle, _ := rootWithOutside(t)
	fifo := filepath.Join(bundle, "x.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	r := mustOpenRoot(t, bundle, 0)
	done := make(chan error, 1)
	go func() {
		_, err := r.ReadFile("x.md")
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") || !strings.Contains(err.Error(), "x.md") {
			t.Errorf("ReadFile(fifo) = %v; want ErrNotRegular naming a named pipe and x.md", err)
		}
	case <-time.After(60 * time.Second): // generous: a blocking open never returns at all
		t.Fatal("reading a named pipe blocked")
	}
	if _, err := r.ReadFile("sub"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFile(folder) = %v; want ErrNotRegular", err)
	}
	// A folder may still be opened for listing.
	if es, err := fs.ReadDir(r, "sub"); err != nil || len(es) != 1 {
		t.Errorf("ReadDir(sub) = %v, %v", es, err)
	}
}

// TestRootReadDirAsOS: the FileSystem's listing (without an lstat per entry on Linux) names the
// same entries, sorted, with the same types and the same Info as listing through os.Root, for a
// file, a folder, a link inside, a link outside, a named pipe, in the root and in a subfolder; a
// folder that is a link leading outside is refused as before, and a missing folder is the same
// error.
func TestRootReadDirAsOS(t *testing.T) {
	bundle, outside := rootWithOutside(t)
	for _, l := range [][2]string{{outside, "out.md"}, {"sub/a.md", "in.md"}, {"../sub", "sub/up"}, {filepath.Dir(outside), "away"}} {
		if err := os.Symlink(l[0], filepath.Join(bundle, l[1])); err != nil {
			t.Skipf("cannot make symbolic links here: %v", err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(bundle, "sub", "pipe.md"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	if err := os.WriteFile(filepath.Join(bundle, "b.md"), []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustOpenRoot(t, bundle, 0)
	osr, err := os.OpenRoot(bundle)
	if err != nil {
		t.Fatal(err)
	}
	defer osr.Close()
	for _, dir := range []string{".", "sub", "away", "missing"} {
		got, gotErr := r.ReadDir(dir)
		want, wantErr := fs.ReadDir(osr.FS(), dir)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("ReadDir(%q) error %v, os.Root gives %v", dir, gotErr, wantErr)
		}
		if gotErr != nil {
			if !strings.Contains(gotErr.Error(), dir) {
				t.Errorf("ReadDir(%q) error %v does not name the folder", dir, gotErr)
			}
			continue
		}
		if len(got) != len(want) {
			t.Fatalf("ReadDir(%q): %d entries, os.Root lists %d", dir, len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.Name() != w.Name() || g.Type() != w.Type() || g.IsDir() != w.IsDir() {
				t.Errorf("ReadDir(%q)[%d] = %s %v, os.Root gives %s %v", dir, i, g.Name(), g.Type(), w.Name(), w.Type())
			}
			gi, err1 := g.Info()
			wi, err2 := w.Info()
			if err1 != nil || err2 != nil || gi.Mode() != wi.Mode() || gi.Size() != wi.Size() || gi.Name() != wi.Name() {
				t.Errorf("ReadDir(%q)[%d].Info() = %v, %v; os.Root gives %v, %v", dir, i, gi, err1, wi, err2)
			}
		}
	}
}
