//go:build unix

package okf

import (
	"errors"
	"io/fs"
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
