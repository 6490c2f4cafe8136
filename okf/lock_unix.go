//go:build unix

package okf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/okf-tools/okf/internal/escape"
)

// LockBundle takes the bundle's write lock for holder (the command, "okf lint --fix"): an exclusive
// flock on out/.okf-gen.lock, created with out if missing, holding the holder's name and pid. A
// second writer on the same bundle (okf gen, okf index, okf migrate, okf lint --fix) fails at once
// with ErrLocked naming the command that holds it, rather than interleaving its writes. The kernel drops the lock when the process dies, even by SIGKILL, so a killed run
// never blocks the next one. unlock removes the file and releases the lock, and removes out again
// when Lock created it and the run left it empty.
func LockBundle(out, holder string) (unlock func(), err error) {
	if err := CheckLinkedOut(out); err != nil {
		return nil, err // a bundle folder linked out of its checkout: no lock file written there
	}
	_, statErr := os.Stat(out)
	created := errors.Is(statErr, os.ErrNotExist)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	name := filepath.Join(out, LockFile)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, fmt.Errorf("bundle lock %s: %w", name, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("bundle lock %s: not a regular file", name)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			// The holder wrote its command there once it had the lock (below). The file is in a
			// bundle a stranger may have written, so what is read is escaped and clipped.
			buf := make([]byte, 256)
			n, _ := f.ReadAt(buf, 0)
			who := strings.TrimSpace(string(buf[:n]))
			if who == "" {
				who = "another okf command"
			}
			return nil, fmt.Errorf("%w: %s is writing this bundle (%s is held); run again when it has finished", ErrLocked, escape.Control(who), name)
		}
		return nil, fmt.Errorf("bundle lock %s: %w", name, err)
	}
	// Say who holds it, for the message a second run gives.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(fmt.Sprintf("%s (pid %d)\n", holder, os.Getpid())), 0)
	}
	return func() {
		// Remove first, then release: a run that starts in between makes a new lock file and
		// finds nothing left to interleave with.
		_ = os.Remove(name)
		_ = f.Close()
		if created {
			_ = os.Remove(out) // only when the run wrote nothing into it (an empty folder)
		}
	}, nil
}

// LockFile is the file LockBundle holds (flock) in a bundle while a command writes it. It is hidden,
// so OKF loaders skip it (D5).
const LockFile = ".okf-gen.lock"

// ErrLocked is returned by LockBundle when another command holds the bundle.
var ErrLocked = errors.New("the bundle is locked")
