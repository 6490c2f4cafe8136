//go:build unix

package attest

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// A run is one external attester under way: its host working folder and, once started, its
// process group. While any run is under way okf catches SIGINT, SIGTERM and SIGHUP (a Ctrl-C, a
// CI runner cancelling the job, timeout(1), a closed terminal): it kills every attester's process
// group (in the sandbox the launcher is process 1 of the attester's PID namespace, so the kernel
// kills the whole namespace), removes every working folder, then lets the signal do what it would
// have done. A SIGKILL cannot be caught: then the launcher's parent-death signal kills the
// attester, and the host working folder is left behind.
type run struct {
	tmp  string
	pgid int // 0 until started
}

var (
	runsMu  sync.Mutex
	runs    = map[*run]bool{}
	signals chan os.Signal // non-nil while runs is not empty
)

var caught = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// track records a run whose working folder is tmp; done ends it.
func track(tmp string) *run {
	r := &run{tmp: tmp}
	runsMu.Lock()
	defer runsMu.Unlock()
	if len(runs) == 0 {
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
		if r.pgid > 0 {
			_ = syscall.Kill(-r.pgid, syscall.SIGKILL)
		}
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
