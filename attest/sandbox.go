package attest

// The sandbox for external attesters (issues 9 and 24).
//
// Design. Landlock applies to the process that asks for it and to everything that process starts,
// never to its parent, and Go cannot run code between fork and exec. So okf re-executes its own
// binary as a tiny launcher, `okf __okf-sandbox-exec`, in fresh user, mount, PID, network, IPC,
// UTS and cgroup namespaces. The launcher reads its spec (the program, its arguments and
// environment, the paths it may see, the limits) from descriptor 3, a pipe: nothing of it is on a
// command line, which every local user can read in /proc. The launcher (SandboxMain, called first
// thing in main) then, in order:
//   - marks every descriptor but 0, 1 and 2 close-on-exec (close_range), whatever okf inherited;
//   - builds a new root: a small tmpfs holding read-only bind mounts of the system folders an
//     interpreter needs (/usr, /lib*, a few files of /etc, the interpreter's own prefixes), the
//     device nodes /dev/null, /dev/zero, /dev/random and /dev/urandom (read-only mounts too: the
//     devices work, the host's nodes cannot be changed), and a private tmpfs at /tmp of a fixed
//     size (the disk budget plus the copy of the bundle, which okf made through the bundle's door)
//     holding the copy, HOME and the adapter; checks in the mount table that nothing else is
//     writable; pivots into it and detaches the old root, so no host file, socket path or /proc is
//     left to reach, and everything the attester wrote vanishes with the mount namespace;
//   - joins a fresh session keyring, empties the capability bounding set, and becomes an
//     unprivileged user: okf's own uid, or, when okf runs as root, a fresh uid that no other
//     process on the machine uses (never uid 0);
//   - sets the resource limits, no_new_privs, Landlock (files, TCP, signals and abstract sockets,
//     as a second wall), and a seccomp filter that denies socket() for every family (a Unix
//     socketpair stays), the keyring, namespaces and mounts, ptrace, bpf, perf, io_uring,
//     userfaultfd, kernel modules and kexec, memory outside the budgets (memfd, System V and POSIX
//     IPC), inotify and fanotify, and answers ENOSYS to every call newer than its table;
//   - sets its parent-death signal again (the change of identity cleared it), checks okf is still
//     there, and starts the attester as its child, which inherits all of it. The launcher stays
//     process 1 of the PID namespace, waiting: when okf dies, even by SIGKILL, the launcher gets
//     SIGKILL, and when the launcher dies or the attester exits, the kernel kills every process
//     left in the namespace. An attester cannot outlive okf.
//
// A machine that cannot give one of these layers gives no sandbox: external attesters are then
// unavailable unless the caller passes Options.UnsafeNoSandbox.

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// launcherArg is the hidden first argument that makes okf's binary a sandbox launcher.
const launcherArg = "__okf-sandbox-exec"

// A launcher that cannot confine or start the attester exits launcherFailed after writing one
// line starting with launcherPrefix on its status pipe (statusFD), a descriptor of its own that
// is close-on-exec before the attester starts: okf reads the launcher's failure there and only
// there, never on stderr, which the attester writes too (an attester that exits 125 with that
// line on stderr is an attester that exited 125). The line goes to stderr as well, for people.
const (
	launcherFailed = 125
	launcherPrefix = "okf sandbox: "
)

// Resource limits the launcher sets on the attester (RLIMIT_*), applied before Landlock.
const (
	// LimitAddressSpace bounds virtual memory (RLIMIT_AS).
	LimitAddressSpace = 2 << 30
	// LimitFileSize bounds each file the attester writes (RLIMIT_FSIZE).
	LimitFileSize = 64 << 20
	// LimitOpenFiles bounds open file descriptors (RLIMIT_NOFILE).
	LimitOpenFiles = 256
	// LimitProcesses bounds the attester's processes and threads (RLIMIT_NPROC), counted for its uid
	// in its user namespace, or for its fresh uid (which nothing else uses) where a root okf has none.
	LimitProcesses = 128
	// LimitLockedMemory bounds memory locked into RAM (RLIMIT_MEMLOCK), which the kernel can never
	// swap out; the kernel's old default.
	LimitLockedMemory = 64 << 10
	// LimitPendingSignals bounds queued signals (RLIMIT_SIGPENDING), each kernel memory.
	LimitPendingSignals = 256
	// RLIMIT_MSGQUEUE is 0: an attester gets no POSIX message queue (seccomp denies them too).
)

// sandboxSpec is what okf tells the launcher, over descriptor 3.
type sandboxSpec struct {
	// Probe makes the launcher build the whole sandbox and exit 0 instead of running anything.
	Probe bool     `json:"probe,omitempty"`
	Argv  []string `json:"argv,omitempty"`
	Env   []string `json:"env,omitempty"`
	Dir   string   `json:"dir,omitempty"`
	// Src is okf's private folder: its entries (the bundle copy, home, the adapter) are copied into
	// the sandbox's /tmp; Src/root is where the new root is built.
	Src string `json:"src"`
	// RO lists the host paths mounted read-only at the same place in the new root.
	RO []string `json:"ro,omitempty"`
	// DiskBytes and DiskInodes size the private /tmp.
	DiskBytes  int64 `json:"disk_bytes"`
	DiskInodes int64 `json:"disk_inodes"`
	// UID and GID are who the attester runs as; the launcher starts as root in its namespace
	// when they differ from its own identity.
	UID int `json:"uid"`
	GID int `json:"gid"`
	// CPUSeconds is RLIMIT_CPU; NProc is RLIMIT_NPROC (0: not set).
	CPUSeconds uint64 `json:"cpu_seconds,omitempty"`
	NProc      uint64 `json:"nproc,omitempty"`
}

// sandboxTmp is where the attester's private folder is, inside the sandbox.
const sandboxTmp = "/tmp"

// DiskBudget bounds everything an attester writes, all files together, besides the copy of the
// bundle (the size of its private /tmp); DiskInodes bounds how many files and folders it makes.
const (
	DiskBudget = 256 << 20
	DiskInodes = 16384
)

// diskBudget is DiskBudget; tests lower it.
var diskBudget int64 = DiskBudget

// launcherReady records that the program called SandboxMain, so re-executing it as a launcher works.
var launcherReady bool

// SandboxMain must be the first call in the main function of any program that runs external
// attesters in the sandbox (okf's main does it; so do the tests' TestMain). When the process was
// started as a sandbox launcher it never returns: it confines itself, runs the attester and exits
// with its status.
// Otherwise it returns at once and marks the program as able to launch sandboxes.
func SandboxMain() {
	if len(os.Args) == 2 && os.Args[1] == launcherArg {
		var spec sandboxSpec
		if err := readSpec(&spec); err != nil {
			launcherFail(fmt.Errorf("bad launcher spec: %v", err))
		}
		err := launch(&spec) // returns only on failure, or after a probe
		if err == nil {
			os.Exit(0)
		}
		launcherFail(err)
	}
	launcherReady = true
}

// launcherFail reports the launcher's failure on its status pipe (and stderr) and exits.
func launcherFail(err error) {
	line := launcherPrefix + err.Error() + "\n"
	if f := os.NewFile(statusFD, "status"); f != nil {
		_, _ = f.WriteString(line)
	}
	fmt.Fprint(os.Stderr, line)
	os.Exit(launcherFailed)
}

// Isolation is what this machine offers external attesters: each layer of the sandbox, found by
// building one (MachineIsolation). External attesters run only when every layer is there.
type Isolation struct {
	// Landlock is the kernel's Landlock ABI version (0: none).
	Landlock int `json:"landlock"`
	// UserNS, PIDNS, NetNS and MountNS say which namespaces the attester gets (a root okf needs no
	// user namespace).
	UserNS  bool `json:"user_namespace"`
	PIDNS   bool `json:"pid_namespace"`
	NetNS   bool `json:"net_namespace"`
	MountNS bool `json:"mount_namespace"`
	// Seccomp: the system-call filter loads. CloseRange: inherited descriptors can be closed.
	Seccomp    bool `json:"seccomp"`
	CloseRange bool `json:"close_range"`
	// FreshUID: okf runs as root and gives each attester a uid no other process uses; otherwise
	// the attester runs as okf's own (unprivileged) uid.
	FreshUID bool `json:"fresh_uid"`
	// Why names the missing layer and why ("" when everything is there).
	Why string `json:"why,omitempty"`
}

// Sandboxed reports whether external attesters can run confined: every layer is there.
func (i Isolation) Sandboxed() bool {
	return i.Landlock > 0 && i.PIDNS && i.NetNS && i.MountNS && i.Seccomp && i.CloseRange && i.Why == ""
}

// String is the one-line description `okf version` and `okf attest check` print.
func (i Isolation) String() string {
	if !i.Sandboxed() {
		return "none (" + i.Why + ")"
	}
	ns := "pid+net+mount namespaces"
	if i.UserNS {
		ns = "user+" + ns
	}
	who := "okf's own uid"
	if i.FreshUID {
		who = "a fresh uid"
	}
	return fmt.Sprintf("landlock ABI %d, %s, read-only private root, %d MiB private /tmp, seccomp, inherited descriptors closed, own session keyring, runs as %s",
		i.Landlock, ns, diskBudget>>20, who)
}

// cpuSeconds is the RLIMIT_CPU for a run with this timeout: the timeout rounded up, plus one.
func cpuSeconds(d time.Duration) uint64 {
	return uint64((d+time.Second-1)/time.Second) + 1
}

// specFD is the descriptor the launcher reads its spec from.
const specFD = 3

// statusFD is the launcher's status pipe: only the launcher writes to it, and only its failure.
const statusFD = 5

// maxSpec bounds the spec the launcher reads.
const maxSpec = 16 << 20

// writeSpec sends the spec: its length (8 bytes, big-endian), then its JSON.
func writeSpec(w io.Writer, spec *sandboxSpec) error {
	js, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(js)))
	if _, err := w.Write(n[:]); err != nil {
		return err
	}
	_, err = w.Write(js)
	return err
}

// readSpec reads the spec from descriptor 3 and closes it.
func readSpec(spec *sandboxSpec) error {
	f := os.NewFile(specFD, "spec")
	if f == nil {
		return errors.New("no launcher spec on descriptor 3")
	}
	defer f.Close()
	var n [8]byte
	if _, err := io.ReadFull(f, n[:]); err != nil {
		return fmt.Errorf("bad launcher spec: %v", err)
	}
	size := binary.BigEndian.Uint64(n[:])
	if size > maxSpec {
		return fmt.Errorf("bad launcher spec: %d bytes", size)
	}
	js := make([]byte, size)
	if _, err := io.ReadFull(f, js); err != nil {
		return fmt.Errorf("bad launcher spec: %v", err)
	}
	if err := json.Unmarshal(js, spec); err != nil {
		return fmt.Errorf("bad launcher spec: %v", err)
	}
	return nil
}
