//go:build unix

package attest

import (
	"errors"
	"maps"
	"os"
	"os/signal"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// A run is one external attester under way: its host working folder and, once started, its
// process group. While any run is under way okf catches SIGINT, SIGTERM and SIGHUP (a Ctrl-C, a
// CI runner cancelling the job, timeout(1), a closed terminal), each unless okf was started with
// it ignored (nohup ignores SIGHUP: then a SIGHUP does nothing, to okf or to the attester, as it
// would have done nothing without okf's handler). On a caught signal it marks every run
// interrupted, kills every attester's process group (in the sandbox the launcher is process 1 of
// the attester's PID namespace, so the kernel kills the whole namespace), waits (a bounded time)
// for every copy of a bundle into a working folder to stop (the copy checks the mark before each
// file), removes every working folder, then lets the signal do what it would have done. A run
// marked interrupted is an error result, never a verdict, should okf live on (a program with its
// own handler). A SIGKILL cannot be caught: then the launcher's parent-death signal kills the
// attester, and the host working folder is left behind.
type run struct {
	tmp  string
	pgid int // 0 until started
	// sig is the signal that interrupted the run (nil: none); set under runsMu, read atomically.
	sig     atomic.Value
	copying sync.WaitGroup // copies into tmp under way; Add only under runsMu
}

// copyWait bounds how long onSignal waits for a copy to stop (one file, at most the size limit).
const copyWait = 5 * time.Second

// errInterrupted is what a copy returns when a signal stopped it.
var errInterrupted = errors.New("interrupted by a signal")

// interrupted returns the signal that interrupted the run, or nil.
func (r *run) interrupted() os.Signal {
	if r == nil {
		return nil
	}
	s, _ := r.sig.Load().(os.Signal)
	return s
}

// writing runs f, which writes into the run's working folder, unless a signal already interrupted
// the run; f must check stop (r.interrupted() != nil) before each file it writes. onSignal waits
// for f to return before it removes the folder, so the folder is never filled again behind it.
func (r *run) writing(f func() error) error {
	if r == nil {
		return f()
	}
	runsMu.Lock()
	if r.interrupted() != nil {
		runsMu.Unlock()
		return errInterrupted
	}
	r.copying.Add(1)
	runsMu.Unlock()
	defer r.copying.Done()
	return f()
}

var (
	runsMu  sync.Mutex
	runs    = map[*run]bool{}
	signals chan os.Signal // non-nil while runs is not empty
)

// caught are the signals okf catches while a run is under way: SIGINT, SIGTERM and SIGHUP, less
// those ignored when okf started (read before any handler is set, which un-ignores a signal).
var caught = func() []os.Signal {
	var c []os.Signal
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			c = append(c, s)
		}
	}
	return c
}()

// track records a run whose working folder is tmp; done ends it.
func track(tmp string) *run {
	r := &run{tmp: tmp}
	runsMu.Lock()
	defer runsMu.Unlock()
	if len(runs) == 0 && len(caught) > 0 { // Notify with no signal would catch them all
		signals = make(chan os.Signal, 1)
		signal.Notify(signals, caught...)
		go onSignal(signals)
	}
	runs[r] = true
	return r
}

// started records the run's process group.
func (r *run) started(pid int) {
	if r == nil {
		return
	}
	runsMu.Lock()
	r.pgid = pid
	if r.interrupted() != nil && pid > 0 { // started after onSignal killed the others
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
	runsMu.Unlock()
}

// done ends the run; the last one stops catching signals.
func (r *run) done() {
	if r == nil {
		return
	}
	runsMu.Lock()
	defer runsMu.Unlock()
	if !runs[r] {
		return
	}
	delete(runs, r)
	if len(runs) == 0 && signals != nil {
		signal.Stop(signals)
		close(signals)
		signals = nil
	}
}

// onSignal waits on ch; on a signal it ends every run, stops catching, and sends the signal again,
// so okf ends as it would have (or the program's own handler, if it has one, gets it).
func onSignal(ch chan os.Signal) {
	sig, ok := <-ch
	if !ok {
		return
	}
	runsMu.Lock()
	for r := range runs {
		r.sig.Store(sig)
		if r.pgid > 0 {
			_ = syscall.Kill(-r.pgid, syscall.SIGKILL)
		}
	}
	// Every copy into a working folder checks the mark before each file: wait for it to stop, so
	// that it does not fill the folder again once removed. No new copy starts (writing needs the
	// lock and sees the mark).
	stopped := make(chan struct{})
	go func(rs []*run) {
		for _, r := range rs {
			r.copying.Wait()
		}
		close(stopped)
	}(slices.Collect(maps.Keys(runs)))
	select {
	case <-stopped:
	case <-time.After(copyWait):
	}
	for r := range runs {
		_ = removeTree(r.tmp)
		delete(runs, r)
	}
	if signals == ch {
		signal.Stop(ch)
		signals = nil
	}
	// Sent again with the lock held, so no run ends (and no result is printed as if it had ended
	// on its own) before the signal ends okf. A program with its own handler for it lives on.
	if s, ok := sig.(syscall.Signal); ok {
		_ = syscall.Kill(os.Getpid(), s)
	}
	time.Sleep(time.Second)
	runsMu.Unlock()
}
