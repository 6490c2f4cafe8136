//go:build unix

package generate

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// killAfter returns a write step that writes `after` files (the journal is the first), then starts
// the next one as okf.WriteFileAtomic would (a temporary file, half written) and kills its own
// process with SIGKILL: no deferred cleanup runs.
func killAfter(after int) func(string, []byte, fs.FileMode) error {
	calls := 0
	return func(name string, data []byte, perm fs.FileMode) error {
		calls++
		if calls > after {
			_ = os.WriteFile(filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".tmp-0a1b2c3d4e5f"), data[:len(data)/2], 0o644)
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		return okf.WriteFileAtomic(name, data, perm)
	}
}

// TestKilledRunHelper is the run that TestKilledRun kills; it does nothing unless started by it.
func TestKilledRunHelper(t *testing.T) {
	out := os.Getenv("OKF_GEN_KILL_OUT")
	if out == "" {
		t.Skip("started only by TestKilledRun")
	}
	unlock, err := okf.LockBundle(out, "okf gen")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	plan, err := MakePlan(seedOptions(t, filepath.Join(contentDir, "posts"), out, t0))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = plan.apply(out, killAfter(3)) // the journal and two concepts
	t.Fatal("not killed")
}

// TestKilledRun: a run killed with SIGKILL after writing two of its concepts leaves its journal, a
// temporary file and its lock file; the lock does not block the next run, which removes the
// temporary file and the journal and leaves log.md and index.md agreeing with the concept files on
// disk: every concept is in both.
func TestKilledRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "bundle")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledRunHelper$")
	cmd.Env = append(os.Environ(), "OKF_GEN_KILL_OUT="+out)
	outb, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper: %v, want killed by SIGKILL\n%s", err, outb)
	}
	files := readAll(t, out)
	for _, f := range []string{JournalFile, LockFile, "concepts/.ownership.md.tmp-0a1b2c3d4e5f"} {
		if _, ok := files[f]; !ok {
			t.Errorf("the killed run left no %s: %v", f, files)
		}
	}
	if _, ok := files["log.md"]; ok {
		t.Fatal("the killed run wrote log.md; it should have died before")
	}

	unlock, err := okf.LockBundle(out, "okf gen")
	if err != nil {
		t.Fatalf("the dead run's lock blocks: %v", err)
	}
	plan := run(t, seedOptions(t, filepath.Join(contentDir, "posts"), out, t0.Add(3600e9)))
	unlock()
	if len(plan.Recovered) != 2 {
		t.Errorf("recovered %q, want the 2 concepts the killed run wrote", plan.Recovered)
	}
	files = readAll(t, out)
	var concepts []string
	for p := range files {
		if strings.HasPrefix(filepath.Base(p), ".") {
			t.Errorf("%s left after the rerun", p)
		}
		if strings.HasPrefix(p, "concepts/") && p != "concepts/index.md" {
			concepts = append(concepts, p)
		}
	}
	if len(concepts) != 3 {
		t.Errorf("concepts %v, want 3", concepts)
	}
	for _, c := range concepts {
		if !strings.Contains(files["log.md"], "(/"+c+")") {
			t.Errorf("log.md does not record %s:\n%s", c, files["log.md"])
		}
		if !strings.Contains(files["index.md"], "("+c+")") {
			t.Errorf("index.md does not list %s:\n%s", c, files["index.md"])
		}
	}
	// The killed run's entries keep its date; the rerun's own entry is dated by its clock.
	if !strings.Contains(files["log.md"], "## 2026-11-30\n") {
		t.Errorf("log.md:\n%s", files["log.md"])
	}
}
