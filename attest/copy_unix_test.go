//go:build linux

package attest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/okf-tools/okf/okf"
	"golang.org/x/sys/unix"
)

// copyUnderSwaps loads a bundle holding f.csv, then copies it n times while swap runs in a loop:
// the checkout's owner changing it under okf. It fails when a copy blocks.
func copyUnderSwaps(t *testing.T, n int, swap func(dir string), check func(copied string) error) {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.md"), []byte("---\nokf_version: \"0.2\"\n---\n# R\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "f.csv"), []byte("a,b\n"), 0o644)
	b, err := okf.LoadDir(dir, okf.LoadOptions{MaxFileSize: 1024})
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	go func() {
		for !stop.Load() {
			swap(dir)
		}
	}()
	defer stop.Store(true)
	done := make(chan error, 1)
	out := t.TempDir()
	go func() {
		for i := range n {
			dst := filepath.Join(out, strings.Repeat("c", 1+i%3)+string(rune('a'+i%26)))
			os.RemoveAll(dst)
			if err := copyBundle(b, dst); err != nil {
				done <- err
				return
			}
			if err := check(dst); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("copying the bundle blocked (a file swapped for a named pipe was opened, or a huge file read)")
	}
}

// TestCopyBundleFileSwappedForPipe: a file exchanged with a named pipe between the copy's look and
// its open is never opened blocking (the old copy hung in openat, outside every timeout).
func TestCopyBundleFileSwappedForPipe(t *testing.T) {
	copyUnderSwaps(t, 400, func(dir string) {
		fifo := filepath.Join(dir, "p")
		if _, err := os.Lstat(fifo); err != nil {
			syscall.Mkfifo(fifo, 0o644)
		}
		unix.Renameat2(unix.AT_FDCWD, fifo, unix.AT_FDCWD, filepath.Join(dir, "f.csv"), unix.RENAME_EXCHANGE)
	}, func(string) error { return nil })
}

// TestCopyBundleFileGrown: a file grown past the size limit after the load (here a sparse 32 MiB)
// is never copied past the limit, whenever it grows.
func TestCopyBundleFileGrown(t *testing.T) {
	big := false
	copyUnderSwaps(t, 300, func(dir string) {
		size := int64(4)
		if big = !big; big {
			size = 32 << 20
		}
		os.Truncate(filepath.Join(dir, "f.csv"), size)
	}, func(copied string) error {
		if st, err := os.Stat(filepath.Join(copied, "f.csv")); err == nil && st.Size() > 1024 {
			return fmt.Errorf("a file grown to %d bytes was copied past the 1024-byte limit", st.Size())
		}
		return nil
	})
}

// TestCopyBundleTotalBound: the copy as a whole is bounded (BundleCopyLimit), not only each file.
func TestCopyBundleTotalBound(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.md"), []byte("---\nokf_version: \"0.2\"\n---\n# R\n"), 0o644)
	for _, n := range []string{"a", "b", "c", "d"} {
		os.WriteFile(filepath.Join(dir, n+".csv"), []byte(strings.Repeat("x", 1000)), 0o644)
	}
	b, err := okf.LoadDir(dir, okf.LoadOptions{MaxFileSize: 1024})
	if err != nil {
		t.Fatal(err)
	}
	saved := bundleCopyLimit
	bundleCopyLimit = 3 * pageSize
	defer func() { bundleCopyLimit = saved }()
	if err := copyBundle(b, filepath.Join(t.TempDir(), "copy")); err == nil || !strings.Contains(err.Error(), "the most okf copies") {
		t.Errorf("a bundle over the copy limit was copied: %v", err)
	}
	bundleCopyLimit = saved
	if err := copyBundle(b, filepath.Join(t.TempDir(), "copy")); err != nil {
		t.Errorf("a bundle within the copy limit was refused: %v", err)
	}
}
