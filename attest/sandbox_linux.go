//go:build linux

package attest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// launcherPath overrides the launcher binary (os.Executable) in tests.
var launcherPath string

// nobody is the user a root okf maps the attester to, so the process limit applies (the kernel
// exempts real root from RLIMIT_NPROC).
const nobody = 65534

var (
	isoOnce sync.Once
	iso     Isolation
	isoNS   uintptr // the clone flags that worked, 0 for none
)

// nsFlags are the namespaces tried, with and without a user namespace.
const nsFlags = syscall.CLONE_NEWPID | syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS

// MachineIsolation probes, once, what isolation external attesters get on this machine: the
// Landlock ABI, and which namespaces a launcher can be started in (by starting one that exits).
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
			iso = Isolation{Why: "this program does not call attest.SandboxMain, so it cannot launch a sandbox"}
			return
		}
		self, err := os.Executable()
		if err != nil {
			iso = Isolation{Why: "cannot find okf's own binary to launch the sandbox: " + err.Error()}
			return
		}
		probe, _ := json.Marshal(sandboxSpec{Probe: true})
		try := func(flags uintptr) bool {
			cmd := exec.Command(self, launcherArg, string(probe))
			cmd.Env = []string{}
			cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: flags, Setpgid: true, Pdeathsig: syscall.SIGKILL}
			if flags&syscall.CLONE_NEWUSER != 0 {
				u, g := os.Geteuid(), os.Getegid()
				cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: u, HostID: u, Size: 1}}
				cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: g, HostID: g, Size: 1}}
				cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(u), Gid: uint32(g), NoSetGroups: true}
			}
			return cmd.Run() == nil
		}
		switch {
		case try(syscall.CLONE_NEWUSER | nsFlags):
			isoNS = syscall.CLONE_NEWUSER | nsFlags
			iso.UserNS, iso.PIDNS, iso.NetNS = true, true, true
		case os.Geteuid() == 0 && try(nsFlags):
			isoNS = nsFlags
			iso.PIDNS, iso.NetNS = true, true
		}
	})
	return iso
}

// mappedIDs is the user and group the attester runs as in its user namespace: the caller's own,
// except that root becomes nobody when every path the attester needs is open to others (root is
// exempt from the process limit): the launcher binary, the program and its read-only paths.
func mappedIDs(paths []string) (int, int) {
	uid, gid := os.Geteuid(), os.Getegid()
	if uid != 0 {
		return uid, gid
	}
	for _, p := range paths {
		if !openToOthers(p) {
			return 0, 0
		}
	}
	return nobody, nobody
}

// openToOthers reports whether a user who owns nothing can reach p: every folder above it
// searchable by others, p itself readable by others.
func openToOthers(p string) bool {
	p, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm()&0o004 == 0 {
		return false
	}
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err != nil || st.Mode().Perm()&0o001 == 0 {
			return false
		}
		if d == filepath.Dir(d) {
			return true
		}
	}
}

// systemRO are the folders and files an interpreter needs to start, read-only. Missing ones are
// skipped. /etc as a whole is not here: it holds passwd, hosts, and often credentials.
var (
	systemRODirs  = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc/ld.so.conf.d", "/etc/alternatives"}
	systemROFiles = []string{"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.preload", "/etc/localtime"}
	systemRWFiles = []string{"/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"}
)

// sandboxCommand builds the command that runs argv confined: the launcher, in namespaces where
// available, with the spec. tmp is the attester's private folder (read-write); ro lists extra
// paths it may read (Python's prefix, an attester outside the bundle).
func sandboxCommand(argv []string, dir, tmp string, env []string, ro []string, timeout time.Duration) (*exec.Cmd, error) {
	is := MachineIsolation()
	if !is.Sandboxed() {
		return nil, errors.New(is.Why)
	}
	self := launcherPath
	if self == "" {
		var err error
		if self, err = os.Executable(); err != nil {
			return nil, err
		}
	}
	spec := sandboxSpec{
		Argv: argv, Env: env, Dir: dir,
		RODirs:     append([]string{}, systemRODirs...),
		ROFiles:    append([]string{}, systemROFiles...),
		RWDirs:     []string{tmp},
		RWFiles:    systemRWFiles,
		CPUSeconds: cpuSeconds(timeout),
	}
	if etc, _ := filepath.Glob("/etc/python3*"); len(etc) > 0 {
		spec.RODirs = append(spec.RODirs, etc...)
	}
	for _, p := range ro {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			spec.RODirs = append(spec.RODirs, p)
		} else {
			spec.ROFiles = append(spec.ROFiles, p)
		}
	}
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Cloneflags: isoNS}
	if isoNS&syscall.CLONE_NEWUSER != 0 {
		need := append([]string{self, filepath.Dir(tmp)}, ro...) // TMPDIR must be reachable too
		if !strings.HasPrefix(argv[0], tmp+string(filepath.Separator)) {
			need = append(need, argv[0]) // the private folder is handed over below
		}
		uid, gid := mappedIDs(need)
		if uid != os.Geteuid() {
			if err := chownTree(tmp, uid, gid); err != nil {
				return nil, err
			}
		}
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		attr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}
		if uid != 0 {
			spec.NProc = LimitProcesses
		}
	}
	js, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, launcherArg, string(js))
	cmd.Dir = dir
	cmd.Env = []string{}
	cmd.SysProcAttr = attr
	return cmd, nil
}

func chownTree(root string, uid, gid int) error {
	return filepath.WalkDir(root, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
}

// launch runs in the launcher: limits, capabilities, Landlock, then exec. It returns only on failure.
func launch(spec *sandboxSpec) error {
	if len(spec.Argv) == 0 {
		return errors.New("nothing to run")
	}
	// The capability sets and the Landlock domain below are per thread: everything happens on this
	// one locked thread, which then execs (replacing every thread). Never unlocked.
	runtime.LockOSThread()
	limits := []struct {
		res int
		cur uint64
		max uint64
	}{
		{unix.RLIMIT_AS, LimitAddressSpace, LimitAddressSpace},
		{unix.RLIMIT_FSIZE, LimitFileSize, LimitFileSize},
		{unix.RLIMIT_NOFILE, LimitOpenFiles, LimitOpenFiles},
		{unix.RLIMIT_CORE, 0, 0},
	}
	if spec.CPUSeconds > 0 {
		limits = append(limits, struct {
			res      int
			cur, max uint64
		}{unix.RLIMIT_CPU, spec.CPUSeconds, spec.CPUSeconds + 1})
	}
	if spec.NProc > 0 {
		limits = append(limits, struct {
			res      int
			cur, max uint64
		}{unix.RLIMIT_NPROC, spec.NProc, spec.NProc})
	}
	for _, l := range limits {
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: l.cur, Max: l.max}); err != nil {
			return fmt.Errorf("cannot set resource limit %d: %v", l.res, err)
		}
	}
	// No capability survives into the attester: empty the bounding set (so an exec as root gains
	// none) and the ambient and inheritable sets. EPERM means there were none to drop.
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EPERM) && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("cannot drop capability %d: %v", c, err)
		}
	}
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err == nil {
		data[0].Inheritable, data[1].Inheritable = 0, 0
		_ = unix.Capset(&hdr, &data[0])
	}
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return fmt.Errorf("Landlock is not available (ABI %d, %v); refusing to run unconfined", abi, err)
	}
	rules := []landlock.Rule{
		landlock.RODirs(spec.RODirs...).IgnoreIfMissing(),
		landlock.ROFiles(spec.ROFiles...).IgnoreIfMissing(),
		landlock.RWDirs(spec.RWDirs...).WithRefer(),
		landlock.RWFiles(spec.RWFiles...).IgnoreIfMissing(),
	}
	// V11 in best-effort mode is every right this kernel's ABI (at least 1, checked above) can
	// restrict; with no network rule every TCP bind and connect is denied where the ABI handles them.
	// The ruleset is enforced on this thread only, as go-landlock documents for "restrict, then
	// exec" (its all-threads Restrict signals every thread and hangs in a PID namespace's init).
	fd, flags, err := landlock.V11.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("cannot build the Landlock ruleset: %v", err)
	}
	if fd < 0 {
		return errors.New("Landlock has nothing to enforce; refusing to run unconfined")
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("cannot set no_new_privs: %v", err)
	}
	if err := llsyscall.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("cannot apply Landlock: %v", err)
	}
	unix.Close(fd)
	if spec.Dir != "" {
		if err := os.Chdir(spec.Dir); err != nil {
			return err
		}
	}
	prog := spec.Argv[0]
	if !strings.ContainsRune(prog, '/') {
		if p, err := exec.LookPath(prog); err == nil {
			prog = p
		}
	}
	err = syscall.Exec(prog, spec.Argv, spec.Env)
	return fmt.Errorf("cannot run %s: %v", spec.Argv[0], err)
}
