package attest

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/okf-tools/okf/internal/bytesize"
	"github.com/okf-tools/okf/okf"
)

//go:embed adapter.py
var adapterPy []byte

// DefaultTimeout bounds an external attester's run when Options.Timeout is zero.
const DefaultTimeout = 30 * time.Second

// DefaultOutputCap is how much of an external attester's stdout and stderr is kept (each).
const DefaultOutputCap = 1 << 20

// stderrTailBytes is how much of stderr a result shows.
const stderrTailBytes = 2000

// Options say how attesters run. The zero value is the safe default.
type Options struct {
	// Timeout kills the attester's whole process group when reached (DefaultTimeout when zero).
	Timeout time.Duration
	// OutputCap caps stdout and stderr, each (DefaultOutputCap when zero).
	OutputCap int
	// Env names the variables passed through from Getenv besides PATH and LANG.
	Env []string
	// Getenv reads the caller's environment (os.Getenv when nil).
	Getenv func(string) string
	// AllowOutside lets an attester whose path leaves the bundle run.
	AllowOutside bool
	// AllowExec lets external attesters (executables, Python) run: they are code from the bundle.
	// Without it they are unavailable; builtins always run.
	AllowExec bool
	// UnsafeNoSandbox runs external attesters unconfined where the machine offers no sandbox
	// (MachineIsolation). Without it they are unavailable there.
	UnsafeNoSandbox bool
	// unconfined runs external attesters unconfined even where a sandbox exists: the tests'
	// control runs, which show that each escape the sandbox blocks works without it.
	unconfined bool
	// run is the run under way, which okf ends on SIGINT, SIGTERM or SIGHUP (signal_unix.go).
	run *run
}

// ExecHint is how a user allows external attesters; it ends the reason of an unavailable result.
const ExecHint = "pass --allow-exec (or set OKF_ALLOW_EXEC=1) to run it in the sandbox"

func (o Options) getenv(k string) string {
	if o.Getenv == nil {
		return os.Getenv(k)
	}
	return o.Getenv(k)
}

// Attest runs a computation's attester over a request (D18). It never returns a pass unless the
// attester ran cleanly and said ok: a missing attester is unavailable, and a crash, a timeout or a
// malformed verdict is an error carrying the reason and the attester's stderr tail.
func Attest(b *okf.Bundle, comp *Computation, req *Request, opts Options) *Result {
	a := comp.Attester
	res := &Result{Concept: comp.ID, Attester: a.Resource, Kind: a.Kind, Details: json.RawMessage("{}")}
	if missing := missingFields(req.Receipt, comp.Receipt); len(missing) > 0 {
		return res.set(Fail, "the receipt lacks field(s) that executor.receipt requires: %s", strings.Join(missing, ", "))
	}
	switch a.State {
	case "ok":
	case "undeclared", "missing":
		return res.set(Unavailable, "%s", a.Problem)
	default:
		return res.set(Error, "%s", a.Problem)
	}
	switch a.Kind {
	case "builtin":
		fn := builtins[strings.TrimPrefix(a.Resource, "builtin:")]
		v := fn(req)
		return fromVerdict(res, v)
	case "executable", "python":
		if !opts.AllowExec {
			return res.set(Unavailable, "attester %q is code from the bundle and external attesters are off; %s", a.Resource, ExecHint)
		}
		if is := MachineIsolation(); !is.Sandboxed() && !opts.UnsafeNoSandbox {
			return res.set(Unavailable, "attester %q cannot be sandboxed here: %s; pass --unsafe-no-sandbox to run it unconfined, with okf's own rights", a.Resource, is.Why)
		}
		return runExternal(b, a, req, opts, res)
	}
	return res.set(Error, "attester %q is of no kind okf can run", a.Resource)
}

// missingFields lists the declared receipt fields absent from the receipt object, sorted.
func missingFields(receipt json.RawMessage, fields []string) []string {
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(receipt, &rec); err != nil {
		return []string{"(the receipt is not a JSON object)"}
	}
	var out []string
	for _, f := range fields {
		if _, ok := rec[f]; !ok {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

func fromVerdict(res *Result, v *Verdict) *Result {
	res.Outcome = Fail
	if v.OK {
		res.Outcome = Pass
	}
	res.Reason = v.Reason
	res.Details = v.Details
	if len(res.Details) == 0 {
		res.Details = json.RawMessage("{}")
	}
	return res
}

// runExternal runs an executable or a Python attester in the sandbox: a copy of the bundle as
// working directory, a clean environment, a timeout over the whole process group, and capped
// output. okf prepares the attester's folder in a private temporary folder of its own; sandboxed,
// the attester gets a copy of it in a private tmpfs that vanishes with it, so the host folder is
// never the attester's to lock. That folder is removed afterwards, and a failure to remove it is
// an error, never silence.
func runExternal(b *okf.Bundle, a Attester, req *Request, opts Options, res *Result) *Result {
	tmp, err := os.MkdirTemp("", "okf-attest-")
	if err != nil {
		return res.set(Error, "cannot make a sandbox folder: %v", err)
	}
	opts.run = track(tmp)
	defer opts.run.done()
	out := runExternalIn(tmp, b, a, req, opts, res)
	rmErr := removeTree(tmp)
	// A signal okf lived on (its program's own handler) stopped the copy or killed the attester:
	// whatever the attester said, it did not judge the whole bundle to the end.
	if sig := opts.run.interrupted(); sig != nil {
		res.ExitCode = nil
		res.Details = nil
		return res.set(Error, "interrupted by %v before the attester finished; no verdict", sig)
	}
	if rmErr != nil {
		return res.set(Error, "cannot remove the attester's working folder %q: %v", tmp, rmErr)
	}
	return out
}

// removeTree removes dir whatever modes were set inside it (an unconfined attester can lock its
// own user out of a folder with chmod 000): folders get their owner's rights back, then it is
// removed again. It fails only when that cannot be done (an immutable file, a mount).
func removeTree(dir string) error {
	if err := os.RemoveAll(dir); err == nil {
		return nil
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if _, err := os.Lstat(dir); err == nil {
		return errors.New("it is still there")
	}
	return nil
}

func runExternalIn(tmp string, b *okf.Bundle, a Attester, req *Request, opts Options, res *Result) *Result {
	reqJSON, err := json.Marshal(req)
	if err != nil {
		return res.set(Error, "cannot encode the request: %v", err)
	}
	sandboxed := MachineIsolation().Sandboxed() && !opts.unconfined
	// base is where the attester sees okf's folder: the sandbox's /tmp, or the folder itself.
	base := tmp
	if sandboxed {
		base = sandboxTmp
	}
	// Every write into tmp is inside opts.run.writing, which a signal waits for before it removes
	// tmp, and uses Mkdir, never MkdirAll: a folder a signal removed is not made again.
	if err := opts.run.writing(func() error { return os.Mkdir(filepath.Join(tmp, "home"), 0o700) }); err != nil {
		return res.set(Error, "cannot make a sandbox folder: %v", err)
	}
	stop := func() bool { return opts.run.interrupted() != nil }
	if err := opts.run.writing(func() error { return copyBundleUntil(b, filepath.Join(tmp, "bundle"), stop) }); err != nil {
		return res.set(Error, "cannot copy the bundle into the sandbox: %v", err)
	}
	home := filepath.Join(base, "home")
	work := filepath.Join(base, "bundle")
	file := a.File
	var ro []string // read-only paths outside the private folder the attester needs
	if a.Target != "" && !a.Outside {
		file = filepath.Join(work, filepath.FromSlash(a.Target))
	} else {
		ro = append(ro, file)
	}
	var argv []string
	switch a.Kind {
	case "python":
		py, err := pythonPath(opts)
		if err != nil {
			return res.set(Error, "cannot run Python attester %q: %v", a.Resource, err)
		}
		if err := opts.run.writing(func() error { return os.WriteFile(filepath.Join(tmp, "okf_adapter.py"), adapterPy, 0o600) }); err != nil {
			return res.set(Error, "cannot write the Python adapter: %v", err)
		}
		argv = []string{py, "-I", filepath.Join(base, "okf_adapter.py"), file}
		ro = append(ro, pythonDirs...)
	default:
		argv = []string{file}
	}
	env := []string{"HOME=" + home, "TMPDIR=" + base}
	for _, k := range append([]string{"PATH", "LANG"}, opts.Env...) {
		if v := opts.getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	var cmd *exec.Cmd
	if sandboxed {
		err = opts.run.writing(func() error { // it makes tmp/root
			var err error
			cmd, err = sandboxCommand(argv, work, tmp, env, ro, opts.timeout())
			return err
		})
		if err != nil {
			return res.set(Error, "cannot prepare the sandbox: %v", err)
		}
		defer closeExtra(cmd)
	} else { // UnsafeNoSandbox (checked by Attest)
		cmd = exec.Command(argv[0], argv[1:]...)
		cmd.Dir = work
		cmd.Env = env
	}
	out := sandboxRun(cmd, reqJSON, opts)
	launcherMsg := "" // the launcher's own word on its status pipe, never the attester's stderr
	if sandboxed {
		launcherMsg = launcherFailure(cmd)
	}
	res.StderrTail = tail(out.stderr.Bytes(), stderrTailBytes)
	if out.stdout.capped {
		res.Capped = append(res.Capped, "stdout")
	}
	if out.stderr.capped {
		res.Capped = append(res.Capped, "stderr")
	}
	switch {
	case out.timedOut:
		return res.set(Error, "the attester timed out after %s; its process group was killed", out.timeout)
	case out.startErr != nil:
		return res.set(Error, "cannot start the attester: %v", out.startErr)
	case sandboxed && out.exitCode == launcherFailed && launcherMsg != "":
		return res.set(Error, "the sandbox could not start the attester: %s", head([]byte(launcherMsg), 300))
	case out.exitCode != 0:
		code := out.exitCode
		res.ExitCode = &code
		return res.set(Error, "the attester exited with status %d (a verdict is only read from a clean exit)", code)
	case out.stdout.capped:
		return res.set(Error, "the attester wrote more than the %d-byte output cap on stdout; the verdict cannot be read", out.stdout.limit)
	}
	zero := 0
	res.ExitCode = &zero
	v, err := parseVerdict(out.stdout.Bytes())
	if err != nil {
		return res.set(Error, "malformed verdict: %v", err)
	}
	fromVerdict(res, v)
	if res.Outcome == Pass {
		res.StderrTail = ""
	}
	return res
}

// BundleCopyLimit bounds the copy of the bundle an attester gets, all files together, counted as
// the private /tmp counts them (each file and folder a page, each file's size rounded up to whole
// pages). A larger bundle is not copied and the attester does not run. The private /tmp is the
// copy plus DiskBudget, so it never holds more than BundleCopyLimit + DiskBudget.
const BundleCopyLimit = 256 << 20

// bundleCopyLimit is BundleCopyLimit; tests lower it.
var bundleCopyLimit int64 = BundleCopyLimit

// copyBundle copies the bundle's walked files into dir, keeping their modes, so an attester can read
// the bundle but never change it. Links the loader refused (D5) are not in its file list.
//
// okf copies with its own rights, outside the sandbox, from a checkout that someone else may be
// changing while it does. So every file is read through the bundle's door as the loader reads it,
// never through a plain path: its folder is opened through the bundle's Root (os.Root: no path or
// link leads outside the bundle, whatever was swapped since the load), the file in it by its bare
// name with O_NOFOLLOW (a link put there now is not followed) and O_NONBLOCK (a named pipe does not
// block), its type is checked on the open handle (only a regular file is read), and the read stops
// at the bundle's size limit whatever the file's size says or becomes (it may grow, or be sparse).
// Whatever is no longer a folder or a regular file is left out; the whole copy is bounded by
// bundleCopyLimit. Nothing here can block, so the copy needs no timeout.
func copyBundle(b *okf.Bundle, dir string) error {
	return copyBundleUntil(b, dir, func() bool { return false })
}

// copyBundleUntil is copyBundle, checking stop before each file: once it says so the copy stops
// with errInterrupted (a signal is removing the folder).
func copyBundleUntil(b *okf.Bundle, dir string, stop func() bool) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	root := b.FileSystem()
	var total int64
	for _, p := range b.Files() {
		if stop() {
			return errInterrupted
		}
		st, err := root.Lstat(p) // confined; never opens, so never blocks
		if err != nil || !(st.Mode().IsRegular() || st.IsDir()) {
			continue
		}
		total += pageSize
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if st.IsDir() {
			if err := os.MkdirAll(dst, 0o700); err != nil {
				return err
			}
		} else {
			n, err := copyConfined(root, p, dst, st.Mode().Perm())
			if err != nil {
				return err
			}
			total += (n + pageSize - 1) / pageSize * pageSize
		}
		if total > bundleCopyLimit {
			return fmt.Errorf("the bundle's files take more than %s, the most okf copies for an attester", bytesize.Format(bundleCopyLimit))
		}
	}
	return nil
}

const pageSize = 4096

// copyConfined copies the bundle file p into dst (created, never there before) and returns its
// size, or copies nothing (0, nil) when p is not a regular file inside the bundle of at most the
// size limit by the time it is opened and read.
func copyConfined(root *okf.FileSystem, p, dst string, mode os.FileMode) (int64, error) {
	folder, base := path.Split(p)
	if folder = strings.TrimSuffix(folder, "/"); folder == "" {
		folder = "."
	}
	df, err := root.Open(folder) // confined, non-blocking; a folder or a regular file
	if err != nil {
		return 0, nil
	}
	defer df.Close()
	var in *os.File
	if d, ok := df.(*os.File); ok {
		in, err = openNoFollow(d, base)
	}
	if in == nil && (err == nil || errors.Is(err, errors.ErrUnsupported)) {
		// A bundle on a generic file system, or no openat here: the FileSystem's own capped read.
		data, err := root.ReadFile(p)
		if err != nil {
			return 0, nil
		}
		return int64(len(data)), writeNew(dst, mode, bytes.NewReader(data))
	}
	if err != nil {
		return 0, nil // gone, a link, not a folder any more, unreadable
	}
	defer in.Close()
	st, err := in.Stat()
	limit := root.MaxFileSize()
	if err != nil || !st.Mode().IsRegular() || st.Size() > limit {
		return 0, nil // a pipe, device or folder put there since the walk; or now too large
	}
	// At most the limit plus one byte is read: one more means the file grew past it.
	cr := countReader{r: io.LimitReader(in, limit+1)}
	if err := writeNew(dst, mode, &cr); err != nil {
		return 0, err
	}
	if cr.n > limit {
		return 0, os.Remove(dst)
	}
	return cr.n, nil
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// writeNew creates dst (it must not exist) and fills it from r.
func writeNew(dst string, mode os.FileMode, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// copyFile copies src, a file of okf's own private folder (never the bundle), into dst.
func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if st, err := in.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil // replaced by something else since the walk: not copied
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

var (
	pythonOnce sync.Once
	pythonExe  string
	pythonErr  error
	// pythonDirs are the interpreter's prefixes, which the sandbox lets it read.
	pythonDirs []string
)

// pythonPath finds the real python3 interpreter once. Version-manager shims (pyenv) need the
// caller's HOME, which the sandbox replaces, so the interpreter is asked for its own path first.
func pythonPath(opts Options) (string, error) {
	pythonOnce.Do(func() {
		exe, err := exec.LookPath("python3")
		if err != nil {
			pythonErr = errors.New("python3 is not on PATH")
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, exe, "-c",
			"import sys; print(sys.executable); print(sys.prefix); print(sys.exec_prefix); print(sys.base_prefix); print(sys.base_exec_prefix)").Output()
		if err != nil {
			pythonErr = fmt.Errorf("python3 does not start: %v", err)
			return
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		pythonExe = strings.TrimSpace(lines[0])
		if pythonExe == "" {
			pythonExe = exe
		}
		seen := map[string]bool{}
		for _, d := range append(lines[1:], filepath.Dir(pythonExe)) {
			if d = strings.TrimSpace(d); d != "" && d != "/" && filepath.IsAbs(d) && !seen[d] { // never the whole disk
				seen[d] = true
				pythonDirs = append(pythonDirs, d)
			}
		}
	})
	return pythonExe, pythonErr
}

// PythonAvailable reports whether Python attesters can run here.
func PythonAvailable() bool {
	_, err := pythonPath(Options{})
	return err == nil
}

// capBuffer keeps the first limit bytes written and drops the rest, noting that it did, so a
// runaway attester can neither exhaust memory nor block on a full pipe.
type capBuffer struct {
	buf    bytes.Buffer
	limit  int
	capped bool
}

func (c *capBuffer) Write(p []byte) (int, error) {
	room := c.limit - c.buf.Len()
	if room < len(p) {
		c.capped = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}

func (c *capBuffer) Bytes() []byte { return c.buf.Bytes() }

type runOutput struct {
	stdout, stderr *capBuffer
	exitCode       int
	timedOut       bool
	timeout        time.Duration
	startErr       error
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

// sandboxRun runs cmd (built, not started) with stdin under the timeout and output caps.
func sandboxRun(cmd *exec.Cmd, stdin []byte, opts Options) runOutput {
	timeout := opts.timeout()
	limit := opts.OutputCap
	if limit <= 0 {
		limit = DefaultOutputCap
	}
	out := runOutput{stdout: &capBuffer{limit: limit}, stderr: &capBuffer{limit: limit}, timeout: timeout}
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Stdout = out.stdout
	cmd.Stderr = out.stderr
	cmd.WaitDelay = 2 * time.Second
	isolate(cmd)
	var timedOut atomic.Bool
	if err := cmd.Start(); err != nil {
		out.startErr = err
		return out
	}
	opts.run.started(cmd.Process.Pid)
	timer := time.AfterFunc(timeout, func() {
		timedOut.Store(true)
		killGroup(cmd)
	})
	err := cmd.Wait()
	timer.Stop()
	killGroup(cmd)
	if timedOut.Load() {
		out.timedOut = true
		return out
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		out.exitCode = ee.ExitCode()
		if out.exitCode < 0 {
			out.exitCode = 128 + 9 // killed by a signal
		}
	case errors.Is(err, exec.ErrWaitDelay):
		// The attester exited but left a child holding its output open: the child was killed.
	default:
		out.startErr = err
	}
	return out
}

// tail returns the last n bytes of b, starting at a line boundary when one is near.
func tail(b []byte, n int) string {
	b = bytes.TrimRight(b, "\n")
	if len(b) <= n {
		return string(b)
	}
	t := b[len(b)-n:]
	if i := bytes.IndexByte(t, '\n'); i >= 0 && i < len(t)-1 {
		t = t[i+1:]
	}
	return "…" + string(t)
}
