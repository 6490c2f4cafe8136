//go:build linux

package attest

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

var (
	isoOnce sync.Once
	iso     Isolation
	isoNS   uintptr // the clone flags that worked
)

// nsFlags are the namespaces every attester gets; a user namespace is added when it works (it must
// for an okf that is not root: only in one can it mount).
const nsFlags = syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC |
	syscall.CLONE_NEWUTS | syscall.CLONE_NEWCGROUP

// The range a root okf draws attesters' uids from: systemd's "unused" range (docs/UIDS-GIDS.md),
// above container ranges and below the foreign and signed-overflow ones.
const (
	freshUIDMin = 1879048192
	freshUIDMax = 2147352575
)

// freshUID picks the uid (and gid) a root okf gives one attester: random in the range above and
// owned by no running process, so no other process on the machine shares it (and so could read
// its environment or signal it). -1 when none is found.
var freshUID = func() int {
	for range 32 {
		var b [4]byte
		if _, err := rand.Read(b[:]); err != nil {
			return -1
		}
		uid := freshUIDMin + int(binary.BigEndian.Uint32(b[:])%(freshUIDMax-freshUIDMin+1))
		if !uidInUse(uid) {
			return uid
		}
	}
	return -1
}

// uidInUse reports whether a running process belongs to uid (the owner of /proc/PID).
func uidInUse(uid int) bool {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		if st, err := os.Stat("/proc/" + e.Name()); err == nil && st.Sys().(*syscall.Stat_t).Uid == uint32(uid) {
			return true
		}
	}
	return false
}

// MachineIsolation probes, once, what isolation external attesters get on this machine, by
// building the whole sandbox once in a launcher that then exits instead of running anything.
func MachineIsolation() Isolation {
	isoOnce.Do(func() {
		abi, err := llsyscall.LandlockGetABIVersion()
		if err != nil || abi < 1 {
			why := "Landlock is not available in this kernel"
			if err != nil {
				why += ": " + err.Error()
			}
			iso = Isolation{Why: why}
			return
		}
		iso = Isolation{Landlock: abi}
		if !launcherReady {
			iso.Why = "this program does not call attest.SandboxMain, so it cannot launch a sandbox"
			return
		}
		// Descriptors are closed with close_range (Linux 5.9): without it okf cannot promise that
		// the attester inherits nothing.
		if err := unix.CloseRange(math.MaxInt32, math.MaxInt32, 0); err != nil {
			iso.Why = "close_range: cannot close inherited descriptors: " + err.Error()
			return
		}
		iso.CloseRange = true
		flags := []uintptr{syscall.CLONE_NEWUSER | nsFlags}
		if os.Geteuid() == 0 {
			flags = append(flags, nsFlags)
		}
		var whys []string
		for _, f := range flags {
			if why := probe(f); why != "" {
				whys = append(whys, why)
				continue
			}
			isoNS = f
			iso.UserNS = f&syscall.CLONE_NEWUSER != 0
			iso.PIDNS, iso.NetNS, iso.MountNS, iso.Seccomp = true, true, true, true
			iso.FreshUID = os.Geteuid() == 0
			return
		}
		iso.Why = strings.Join(whys, "; without a user namespace: ")
	})
	return iso
}

// probe builds a sandbox with these namespaces and reports what failed ("" when nothing did).
func probe(flags uintptr) string {
	tmp, err := os.MkdirTemp("", "okf-probe-")
	if err != nil {
		return "cannot make a folder for the sandbox: " + err.Error()
	}
	defer os.RemoveAll(tmp)
	spec, err := newSpec([]string{"/bin/true"}, sandboxTmp, tmp, nil, nil, time.Second)
	if err != nil {
		return err.Error()
	}
	spec.Probe = true
	cmd, err := launcherCommand(spec, flags)
	if err != nil {
		return err.Error()
	}
	defer closeExtra(cmd)
	r := track(tmp) // a signal now still removes the probe's folder
	defer r.done()
	err = cmd.Start()
	if err == nil {
		r.started(cmd.Process.Pid)
		err = cmd.Wait()
	}
	if err != nil {
		msg := launcherFailure(cmd)
		if msg == "" {
			if flags&syscall.CLONE_NEWUSER != 0 {
				return "user namespace: cannot start the launcher in new namespaces: " + err.Error()
			}
			return "namespaces: cannot start the launcher in new namespaces: " + err.Error()
		}
		return head([]byte(msg), 300)
	}
	return ""
}

// systemRO are the folders and files an interpreter needs to start, mounted read-only in the
// attester's root. Missing ones are skipped. /etc as a whole is not here: it holds passwd, hosts,
// and often credentials.
var systemRO = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/etc/ld.so.conf.d", "/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.preload", "/etc/localtime"}

// devNodes are the device nodes the attester gets: it reads and writes them, through read-only
// mounts (the nodes themselves cannot be changed).
var devNodes = []string{"/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"}

// newSpec is the spec that runs argv confined. tmp is okf's private folder (its entries become
// the attester's /tmp); ro lists extra host paths it may read (Python's prefixes, an attester
// outside the bundle).
func newSpec(argv []string, dir, tmp string, env []string, ro []string, timeout time.Duration) (*sandboxSpec, error) {
	spec := &sandboxSpec{
		Argv: argv, Env: env, Dir: dir, Src: tmp,
		RO:         append([]string{}, systemRO...),
		CPUSeconds: cpuSeconds(timeout),
		NProc:      LimitProcesses,
	}
	if etc, _ := filepath.Glob("/etc/python3*"); len(etc) > 0 {
		spec.RO = append(spec.RO, etc...)
	}
	spec.RO = append(spec.RO, ro...)
	if os.Geteuid() == 0 {
		if spec.UID = freshUID(); spec.UID <= 0 {
			return nil, errors.New("no unprivileged uid is free for the attester")
		}
		spec.GID = spec.UID
	} else {
		spec.UID, spec.GID = os.Geteuid(), os.Getegid()
	}
	// The private /tmp holds the copy and the budget on top of it (tmpfs counts whole pages).
	var bytes, inodes int64
	err := filepath.WalkDir(tmp, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		inodes++
		bytes += 4096
		if info, err := d.Info(); err == nil && d.Type().IsRegular() {
			bytes += (info.Size() + 4095) / 4096 * 4096
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	spec.DiskBytes = diskBudget + bytes
	spec.DiskInodes = DiskInodes + inodes
	if err := os.Mkdir(filepath.Join(tmp, "root"), 0o700); err != nil {
		return nil, err
	}
	return spec, nil
}

// sandboxCommand builds the command that runs argv confined: the launcher, in the namespaces, with
// the spec waiting on descriptor 3. dir is the working folder inside the sandbox; tmp is okf's
// private folder, copied into the sandbox's /tmp.
func sandboxCommand(argv []string, dir, tmp string, env []string, ro []string, timeout time.Duration) (*exec.Cmd, error) {
	is := MachineIsolation()
	if !is.Sandboxed() {
		return nil, errors.New(is.Why)
	}
	spec, err := newSpec(argv, dir, tmp, env, ro, timeout)
	if err != nil {
		return nil, err
	}
	return launcherCommand(spec, isoNS)
}

// launcherCommand is the launcher in namespaces flags, its spec already written into the pipe on
// its descriptor 3 (whose read end the caller closes with closeExtra once the launcher started).
// Its command line and environment carry nothing.
func launcherCommand(spec *sandboxSpec, flags uintptr) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find okf's own binary to launch the sandbox: %v", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	// The whole spec goes into the pipe now, so nothing waits on the launcher reading it.
	var buf bytes.Buffer
	if err := writeSpec(&buf, spec); err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	if buf.Len() > 4096 {
		if _, err := unix.FcntlInt(w.Fd(), unix.F_SETPIPE_SZ, buf.Len()); err != nil {
			r.Close()
			w.Close()
			return nil, fmt.Errorf("the sandbox spec (%d bytes) does not fit a pipe: %v", buf.Len(), err)
		}
	}
	_, err = w.Write(buf.Bytes())
	w.Close()
	if err != nil {
		r.Close()
		return nil, err
	}
	// The lifeline: okf holds its write end, never writing, until the launcher is gone; the
	// launcher sees it hang up when okf died (see launch).
	lr, lw, err := os.Pipe()
	if err != nil {
		r.Close()
		return nil, err
	}
	// The status pipe: the launcher's failure, on a descriptor the attester never has.
	sr, sw, err := os.Pipe()
	if err != nil {
		r.Close()
		lr.Close()
		lw.Close()
		return nil, err
	}
	cmd := exec.Command(self, launcherArg)
	cmd.Env = []string{}
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{r, lr, sw} // descriptors 3 (spec), 4 (lifeline), 5 (status)
	lifelines.Store(cmd, lw)
	statuses.Store(cmd, sr)
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Cloneflags: flags}
	if flags&syscall.CLONE_NEWUSER != 0 {
		if os.Geteuid() == 0 {
			// Root in the namespace builds the root, then becomes the fresh uid for good.
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}, {ContainerID: spec.UID, HostID: spec.UID, Size: 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}, {ContainerID: spec.GID, HostID: spec.GID, Size: 1}}
			attr.GidMappingsEnableSetgroups = true
		} else {
			// okf's own uid, keeping only the capabilities that build the root (in its namespace).
			u, g := os.Geteuid(), os.Getegid()
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: u, HostID: u, Size: 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: g, HostID: g, Size: 1}}
			attr.Credential = &syscall.Credential{Uid: uint32(u), Gid: uint32(g), NoSetGroups: true}
			attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP}
		}
	}
	cmd.SysProcAttr = attr
	return cmd, nil
}

// lifelines holds, for each launcher command, the write end of its lifeline pipe.
var lifelines sync.Map // *exec.Cmd -> *os.File

// statuses holds, for each launcher command, the read end of its status pipe.
var statuses sync.Map // *exec.Cmd -> *os.File

// launcherFailure returns what the launcher of cmd, which has exited, wrote on its status pipe
// (without launcherPrefix), or "" when it wrote nothing: then whatever exit status and stderr
// there are, they are the attester's. Only the launcher ever holds the pipe's write end.
func launcherFailure(cmd *exec.Cmd) string {
	v, ok := statuses.LoadAndDelete(cmd)
	if !ok {
		return ""
	}
	sr := v.(*os.File)
	defer sr.Close()
	if len(cmd.ExtraFiles) > 2 && cmd.ExtraFiles[2] != nil {
		cmd.ExtraFiles[2].Close() // okf's copy of the write end: the read below ends at EOF
	}
	_ = sr.SetReadDeadline(time.Now().Add(2 * time.Second))
	b, _ := io.ReadAll(io.LimitReader(sr, 4096))
	msg, ok := bytes.CutPrefix(b, []byte(launcherPrefix))
	if !ok {
		return ""
	}
	msg, _, _ = bytes.Cut(msg, []byte("\n"))
	return string(msg)
}

// closeExtra closes the parent's copies of the launcher's extra descriptors, and its end of the
// lifeline: call it once the launcher has exited.
func closeExtra(cmd *exec.Cmd) {
	if cmd == nil {
		return
	}
	if lw, ok := lifelines.LoadAndDelete(cmd); ok {
		lw.(*os.File).Close()
	}
	if sr, ok := statuses.LoadAndDelete(cmd); ok {
		sr.(*os.File).Close()
	}
	for _, f := range cmd.ExtraFiles {
		if f != nil {
			f.Close()
		}
	}
}

// launch runs in the launcher: descriptors, the new root, keyring, identity, limits, Landlock,
// seccomp, then exec. It returns only on failure, or with nil after a probe. Each error names the
// layer that failed.
func launch(spec *sandboxSpec) error {
	if len(spec.Argv) == 0 {
		return errors.New("nothing to run")
	}
	// The capability sets, the Landlock domain and the seccomp filter below are per thread:
	// everything happens on this one locked thread, which then execs (replacing every thread).
	runtime.LockOSThread()
	// Every descriptor okf inherited (and the spec pipe) is closed when the attester starts.
	if err := unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return fmt.Errorf("close_range: cannot close inherited descriptors: %v", err)
	}
	if err := buildRoot(spec); err != nil {
		return fmt.Errorf("mount namespace: %v", err)
	}
	// A fresh, empty session keyring: okf's keys are not this process's to find.
	if _, _, e := unix.Syscall(unix.SYS_KEYCTL, unix.KEYCTL_JOIN_SESSION_KEYRING, 0, 0); e != 0 {
		return fmt.Errorf("keyring: cannot join a fresh session keyring: %v", e)
	}
	// No capability survives into the attester: empty the bounding set while this process may.
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("capabilities: cannot drop capability %d: %v", c, err)
		}
	}
	if os.Getuid() != spec.UID {
		if err := syscall.Setgroups(nil); err != nil {
			return fmt.Errorf("identity: cannot drop supplementary groups: %v", err)
		}
		if err := syscall.Setresgid(spec.GID, spec.GID, spec.GID); err != nil {
			return fmt.Errorf("identity: cannot become gid %d: %v", spec.GID, err)
		}
		if err := syscall.Setresuid(spec.UID, spec.UID, spec.UID); err != nil {
			return fmt.Errorf("identity: cannot become uid %d: %v", spec.UID, err)
		}
	}
	if os.Getuid() == 0 || os.Geteuid() == 0 || os.Getuid() != spec.UID {
		return fmt.Errorf("identity: still uid %d; refusing to run an attester as root", os.Getuid())
	}
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var none [2]unix.CapUserData
	if err := unix.Capset(&hdr, &none[0]); err != nil {
		return fmt.Errorf("capabilities: cannot clear: %v", err)
	}
	limits := [][3]uint64{
		{unix.RLIMIT_AS, LimitAddressSpace, LimitAddressSpace},
		{unix.RLIMIT_FSIZE, LimitFileSize, LimitFileSize},
		{unix.RLIMIT_NOFILE, LimitOpenFiles, LimitOpenFiles},
		{unix.RLIMIT_CORE, 0, 0},
		{unix.RLIMIT_MEMLOCK, LimitLockedMemory, LimitLockedMemory},
		{unix.RLIMIT_SIGPENDING, LimitPendingSignals, LimitPendingSignals},
		{unix.RLIMIT_MSGQUEUE, 0, 0},
	}
	if spec.CPUSeconds > 0 {
		limits = append(limits, [3]uint64{unix.RLIMIT_CPU, spec.CPUSeconds, spec.CPUSeconds + 1})
	}
	if spec.NProc > 0 {
		limits = append(limits, [3]uint64{unix.RLIMIT_NPROC, spec.NProc, spec.NProc})
	}
	for _, l := range limits {
		// Only ever lowered: a limit the host already sets lower stays (raising it would fail).
		var cur unix.Rlimit
		if err := unix.Getrlimit(int(l[0]), &cur); err == nil && cur.Max < l[2] {
			l[2] = cur.Max
			l[1] = min(l[1], cur.Max)
		}
		if err := unix.Setrlimit(int(l[0]), &unix.Rlimit{Cur: l[1], Max: l[2]}); err != nil {
			return fmt.Errorf("limits: cannot set resource limit %d: %v", l[0], err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("cannot set no_new_privs: %v", err)
	}
	if err := applyLandlock(spec); err != nil {
		return fmt.Errorf("landlock: %v", err)
	}
	if err := loadSeccomp(); err != nil {
		return fmt.Errorf("seccomp: %v", err)
	}
	if spec.Probe {
		return nil
	}
	if spec.Dir != "" {
		if err := os.Chdir(spec.Dir); err != nil {
			return err
		}
	}
	prog := spec.Argv[0]
	if !strings.ContainsRune(prog, '/') {
		for _, kv := range spec.Env {
			if p, ok := strings.CutPrefix(kv, "PATH="); ok {
				os.Setenv("PATH", p)
			}
		}
		if p, err := exec.LookPath(prog); err == nil {
			prog = p
		}
	}
	return supervise(prog, spec)
}

// lifelineFD is the launcher's read end of the lifeline pipe, whose write end only okf holds.
const lifelineFD = 4

// supervise starts the attester as the launcher's child and waits for it, the launcher staying
// process 1 of the PID namespace, confined as the attester is (its uid, limits, Landlock, seccomp)
// and doing nothing else. Its parent-death signal is SIGKILL, set again here because changing
// identity clears it, so okf's death, SIGKILL included, kills it; and when process 1 of a PID
// namespace dies the kernel kills every process in it: the attester cannot outlive okf, whatever
// it does to its own parent-death signal, its process group or its session. okf may have died
// before the signal was set again: then the lifeline (a pipe only okf writes to) has hung up, and
// nothing is started (getppid cannot tell: in a PID namespace the parent is outside, always 0).
// The launcher exits with the attester's status (128+n when killed by signal n).
func supervise(prog string, spec *sandboxSpec) error {
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0); err != nil {
		return fmt.Errorf("cannot set the parent-death signal: %v", err)
	}
	if okfGone() {
		os.Exit(launcherFailed)
	}
	// Forked from this locked thread, the child inherits its identity, Landlock domain and
	// seccomp filters; every descriptor but 0, 1 and 2 is close-on-exec (close_range above).
	pid, err := syscall.ForkExec(prog, spec.Argv, &syscall.ProcAttr{
		Env:   spec.Env,
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		return fmt.Errorf("cannot run %s: %v", spec.Argv[0], err)
	}
	for {
		var ws syscall.WaitStatus
		wpid, err := syscall.Wait4(-1, &ws, 0, nil) // process 1 reaps every orphan too
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("cannot wait for the attester: %v", err)
		}
		if wpid != pid {
			continue
		}
		switch {
		case ws.Exited():
			os.Exit(ws.ExitStatus())
		case ws.Signaled():
			os.Exit(128 + int(ws.Signal()))
		}
	}
}

// okfGone reports whether the lifeline hung up: okf, its only writer, has exited.
func okfGone() bool {
	fds := []unix.PollFd{{Fd: lifelineFD, Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, 0)
		if err == unix.EINTR {
			continue
		}
		return err != nil || (n > 0 && fds[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0)
	}
}

// applyLandlock confines files, TCP and signals inside the new root, a second wall behind the
// mount namespace.
func applyLandlock(spec *sandboxSpec) error {
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return fmt.Errorf("not available (ABI %d, %v); refusing to run unconfined", abi, err)
	}
	var dirs, files []string
	for _, p := range spec.RO {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			dirs = append(dirs, p)
		} else if err == nil {
			files = append(files, p)
		}
	}
	rules := []landlock.Rule{
		landlock.RODirs(dirs...).IgnoreIfMissing(),
		landlock.ROFiles(files...).IgnoreIfMissing(),
		landlock.RWDirs(sandboxTmp).WithRefer(),
		landlock.RWFiles(devNodes...).IgnoreIfMissing(),
	}
	// V11 in best-effort mode is every right this kernel's ABI can restrict; with no network rule
	// every TCP bind and connect is denied where the ABI handles them. The ruleset is enforced on
	// this thread only, as go-landlock documents for "restrict, then exec".
	fd, flags, err := landlock.V11.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("cannot build the ruleset: %v", err)
	}
	if fd < 0 {
		return errors.New("nothing to enforce; refusing to run unconfined")
	}
	defer unix.Close(fd)
	if err := llsyscall.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("cannot apply: %v", err)
	}
	return nil
}

// buildRoot makes the attester's file system: a small tmpfs root holding read-only bind mounts of
// spec.RO at their own paths, the device nodes, and a private tmpfs at /tmp (its size the disk
// budget) filled with spec.Src's entries; then pivots into it and detaches the old root.
func buildRoot(spec *sandboxSpec) error {
	// Nothing mounted here propagates to the host, and nothing from the host propagates in.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("cannot make mounts private: %v", err)
	}
	root := filepath.Join(spec.Src, "root")
	if err := unix.Mount("tmpfs", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=4m,nr_inodes=4096,mode=0755"); err != nil {
		return fmt.Errorf("cannot mount the new root: %v", err)
	}
	tmp := root + sandboxTmp
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return err
	}
	opts := fmt.Sprintf("size=%d,nr_inodes=%d,mode=0700,uid=%d,gid=%d", spec.DiskBytes, spec.DiskInodes, spec.UID, spec.GID)
	if err := unix.Mount("tmpfs", tmp, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("cannot mount the private /tmp: %v", err)
	}
	if err := copyInto(spec.Src, tmp, spec.UID, spec.GID); err != nil {
		return fmt.Errorf("cannot copy the working folder: %v", err)
	}
	// Read-only paths, parents first; a path under one already mounted is already there.
	ro := append([]string{}, spec.RO...)
	for i := 0; i < len(ro); i++ { // symbolic links add their targets
		if st, err := os.Lstat(ro[i]); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			if real, err := filepath.EvalSymlinks(ro[i]); err == nil {
				ro = append(ro, real)
			}
		}
	}
	sort.Strings(ro)
	var mounted []string
	under := func(p string) bool {
		for _, m := range mounted {
			if p == m || strings.HasPrefix(p, m+"/") {
				return true
			}
		}
		return false
	}
	for _, p := range ro {
		p = filepath.Clean(p)
		if !filepath.IsAbs(p) || p == "/" || under(p) {
			continue
		}
		st, err := os.Lstat(p)
		if err != nil {
			continue
		}
		dst := root + p
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			if err := os.Symlink(target, dst); err != nil {
				return err
			}
			continue
		case st.IsDir():
			err = os.Mkdir(dst, 0o755)
		default:
			err = os.WriteFile(dst, nil, 0o644)
		}
		if err != nil {
			return err
		}
		if err := bindMount(p, dst, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV); err != nil {
			return fmt.Errorf("cannot mount %s read-only: %v", p, err)
		}
		mounted = append(mounted, p)
	}
	if err := os.Mkdir(root+"/dev", 0o755); err != nil {
		return err
	}
	for _, d := range devNodes {
		if _, err := os.Stat(d); err != nil {
			continue
		}
		if err := os.WriteFile(root+d, nil, 0o644); err != nil {
			return err
		}
		// Read-only: a device is still read and written through a read-only mount, but the host's
		// node itself (its times, modes, extended attributes) cannot be changed through it.
		if err := bindMount(d, root+d, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NOEXEC); err != nil {
			return fmt.Errorf("cannot mount %s: %v", d, err)
		}
	}
	// Every mount of the new root but its /tmp is read-only (the root itself is made so below).
	points := append([]string{}, mounted...)
	for _, d := range devNodes {
		if _, err := os.Lstat(d); err == nil {
			points = append(points, d)
		}
	}
	if err := checkReadOnly(root, points); err != nil {
		return err
	}
	if err := os.Chdir(root); err != nil {
		return err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("cannot pivot into the new root: %v", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("cannot detach the old root: %v", err)
	}
	if err := os.Chdir("/"); err != nil {
		return err
	}
	// The root itself becomes read-only too (its /tmp is another mount and stays writable).
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
	if err := unix.MountSetattr(unix.AT_FDCWD, "/", 0, &attr); err != nil {
		return fmt.Errorf("cannot make the new root read-only: %v", err)
	}
	var st unix.Statfs_t
	if err := unix.Statfs("/", &st); err != nil || st.Flags&unix.ST_RDONLY == 0 {
		return fmt.Errorf("the new root is still writable (%v)", err)
	}
	return nil
}

// checkReadOnly makes sure the private /tmp is the only writable mount under the new root (at
// root, not yet pivoted into; the root itself is checked after it is made read-only): every mount
// the kernel's table lists under it, submounts of the system folders included, or where there is
// no table (no /proc), each mount made here (points, host paths). An error names the first
// writable one.
func checkReadOnly(root string, points []string) error {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err == nil {
		esc := strings.NewReplacer(`\`, `\134`, " ", `\040`, "\t", `\011`, "\n", `\012`).Replace(root)
		n := 0
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			if len(f) < 6 || !strings.HasPrefix(f[4], esc+"/") {
				continue
			}
			n++
			if f[4] != esc+sandboxTmp && !slices.Contains(strings.Split(f[5], ","), "ro") {
				return fmt.Errorf("%s is mounted writable in the attester's root", strings.TrimPrefix(f[4], esc))
			}
		}
		if n > 0 {
			return nil
		}
	}
	for _, p := range points {
		var st unix.Statfs_t
		if err := unix.Statfs(root+p, &st); err != nil {
			return fmt.Errorf("cannot check the mount %s: %v", p, err)
		}
		if st.Flags&unix.ST_RDONLY == 0 {
			return fmt.Errorf("%s is mounted writable in the attester's root", p)
		}
	}
	return nil
}

// bindMount mounts a recursive clone of src at dst with attrs set on every mount of it.
func bindMount(src, dst string, attrs uint64) error {
	fd, err := unix.OpenTree(unix.AT_FDCWD, src, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	attr := unix.MountAttr{Attr_set: attrs}
	if err := unix.MountSetattr(fd, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &attr); err != nil {
		return err
	}
	return unix.MoveMount(fd, "", unix.AT_FDCWD, dst, unix.MOVE_MOUNT_F_EMPTY_PATH)
}

// copyInto copies src's entries but "root" (folders and regular files, modes kept) into dst, owned
// by uid and gid. src is okf's own folder, which no attester has touched.
func copyInto(src, dst string, uid, gid int) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "." {
			return nil
		}
		if rel == "root" {
			return filepath.SkipDir
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			err = os.Mkdir(to, info.Mode().Perm()|0o700)
		case d.Type().IsRegular():
			err = copyFile(p, to, info.Mode().Perm())
		default:
			return nil
		}
		if err != nil {
			return err
		}
		if os.Geteuid() != uid {
			return os.Lchown(to, uid, gid)
		}
		return nil
	})
}
