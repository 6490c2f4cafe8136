package attest

// The sandbox for external attesters (issue 9).
//
// Design. Landlock applies to the process that asks for it and to everything that process starts,
// never to its parent, and Go cannot run code between fork and exec. So okf re-executes its own
// binary as a tiny launcher: `okf __okf-sandbox-exec SPEC` where SPEC is JSON naming the program,
// its arguments, environment and working folder, the paths it may read, the paths it may write and
// the resource limits. The launcher (SandboxMain, called first thing in main) applies the limits
// to itself, drops every capability, applies Landlock, and then execs the attester, which inherits
// all of it. okf starts the launcher in fresh user, PID, network, IPC and UTS namespaces where the
// kernel allows it, so the attester is process 1 of its own PID namespace: when it exits or is
// killed, the kernel kills every process it left behind, including a `setsid` one.
//
// What the attester gets:
//   - files: read and execute on the system folders an interpreter needs (/usr, /bin, /lib*, a few
//     files under /etc, Python's own prefix), read and write on its own temporary folder (a real
//     copy of the bundle, a HOME, the adapter), read and write on /dev/null, /dev/zero and
//     /dev/urandom; nothing else, so neither /proc (the parent's environment), /etc/passwd, the
//     original bundle nor any other file can be opened;
//   - network: no TCP bind or connect (Landlock ABI 4 and later), and in a network namespace no
//     network at all (only a loopback interface that is down);
//   - signals and abstract Unix sockets only inside its own domain (Landlock ABI 6 and later);
//   - limits: address space, file size, CPU time, open files, and (in a user namespace) processes.
//
// Without Landlock (another OS, an old kernel, Landlock disabled) there is no sandbox and external
// attesters are unavailable unless the caller passes Options.UnsafeNoSandbox.

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// launcherArg is the hidden first argument that makes okf's binary a sandbox launcher.
const launcherArg = "__okf-sandbox-exec"

// A launcher that cannot confine or start the attester exits launcherFailed after writing one
// line starting with launcherPrefix on stderr.
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
	// LimitProcesses bounds processes and threads in the attester's user namespace (RLIMIT_NPROC).
	// It is only set inside a user namespace: outside one, the count is the whole user's.
	LimitProcesses = 128
)

// sandboxSpec is what okf tells the launcher.
type sandboxSpec struct {
	Probe bool     `json:"probe,omitempty"`
	Argv  []string `json:"argv,omitempty"`
	Env   []string `json:"env,omitempty"`
	Dir   string   `json:"dir,omitempty"`
	// RODirs and ROFiles may be read and executed; RWDirs and RWFiles also written.
	RODirs  []string `json:"ro_dirs,omitempty"`
	ROFiles []string `json:"ro_files,omitempty"`
	RWDirs  []string `json:"rw_dirs,omitempty"`
	RWFiles []string `json:"rw_files,omitempty"`
	// CPUSeconds is RLIMIT_CPU; NProc is RLIMIT_NPROC (0: not set).
	CPUSeconds uint64 `json:"cpu_seconds,omitempty"`
	NProc      uint64 `json:"nproc,omitempty"`
}

// launcherReady records that the program called SandboxMain, so re-executing it as a launcher works.
var launcherReady bool

// SandboxMain must be the first call in the main function of any program that runs external
// attesters in the sandbox (okf's main does it; so do the tests' TestMain). When the process was
// started as a sandbox launcher it never returns: it confines itself and execs the attester.
// Otherwise it returns at once and marks the program as able to launch sandboxes.
func SandboxMain() {
	if len(os.Args) >= 3 && os.Args[1] == launcherArg {
		var spec sandboxSpec
		if err := json.Unmarshal([]byte(os.Args[2]), &spec); err != nil {
			fmt.Fprintf(os.Stderr, launcherPrefix+"bad launcher spec: %v\n", err)
			os.Exit(launcherFailed)
		}
		if spec.Probe {
			os.Exit(0)
		}
		err := launch(&spec) // returns only on failure
		fmt.Fprintf(os.Stderr, launcherPrefix+"%v\n", err)
		os.Exit(launcherFailed)
	}
	launcherReady = true
}

// Isolation is what this machine offers external attesters.
type Isolation struct {
	// Landlock is the kernel's Landlock ABI version (0: none).
	Landlock int `json:"landlock"`
	// UserNS, PIDNS and NetNS say which namespaces the attester gets.
	UserNS bool `json:"user_namespace"`
	PIDNS  bool `json:"pid_namespace"`
	NetNS  bool `json:"net_namespace"`
	// Why explains what is missing ("" when everything is there).
	Why string `json:"why,omitempty"`
}

// Sandboxed reports whether external attesters can run confined.
func (i Isolation) Sandboxed() bool { return i.Landlock > 0 }

// String is the one-line description `okf version` and `okf attest check` print.
func (i Isolation) String() string {
	if !i.Sandboxed() {
		return "none (" + i.Why + ")"
	}
	s := fmt.Sprintf("landlock ABI %d", i.Landlock)
	switch {
	case i.UserNS:
		s += ", user+pid+net namespaces"
	case i.PIDNS:
		s += ", pid+net namespaces (no user namespace: no process limit)"
	default:
		s += ", no namespaces (a process that leaves the attester's process group can outlive it; no process limit)"
	}
	if i.Landlock < 4 && !i.NetNS {
		s += ", network not restricted (Landlock ABI < 4)"
	}
	return s
}

// cpuSeconds is the RLIMIT_CPU for a run with this timeout: the timeout rounded up, plus one.
func cpuSeconds(d time.Duration) uint64 {
	return uint64((d+time.Second-1)/time.Second) + 1
}
