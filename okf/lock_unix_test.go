//go:build unix

package okf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLockBundle: a second LockBundle on a held bundle fails at once with ErrLocked; after unlock it succeeds.
func TestLockBundle(t *testing.T) {
	out := filepath.Join(t.TempDir(), "b")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	unlock, err := LockBundle(out, "okf lint --fix")
	if err != nil {
		t.Fatal(err)
	}
	// The second writer is told which command holds the bundle, whichever it is itself.
	want := fmt.Sprintf("okf lint --fix (pid %d) is writing this bundle", os.Getpid())
	if _, err := LockBundle(out, "okf gen"); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), LockFile+" is held") || !strings.Contains(err.Error(), want) {
		t.Errorf("second Lock = %v, want ErrLocked naming the lock file and %q", err, want)
	}
	unlock()
	unlock2, err := LockBundle(out, "okf gen")
	if err != nil {
		t.Fatalf("Lock after unlock: %v", err)
	}
	unlock2()
	if _, err := os.Stat(filepath.Join(out, LockFile)); err == nil {
		t.Error("the lock file is left after unlock")
	}
	// A folder Lock created is removed again when the run left it empty.
	fresh := filepath.Join(t.TempDir(), "new")
	unlock3, err := LockBundle(fresh, "okf gen")
	if err != nil {
		t.Fatal(err)
	}
	unlock3()
	if _, err := os.Stat(fresh); err == nil {
		t.Error("the empty bundle folder Lock created is left")
	}
	// A symbolic link as the lock file is refused, not followed.
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Symlink(target, filepath.Join(out, LockFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := LockBundle(out, "okf gen"); err == nil {
		t.Error("Lock followed a symbolic link")
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("Lock created the symbolic link's target")
	}
}
