//go:build linux

package attest

import (
	"fmt"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/sys/unix"
)

// seccompDenied are the system calls an attester never makes: EPERM. They are the kernel's doors
// to what the rest of the sandbox does not scope (sockets of every family, the keyrings), to
// undoing the sandbox (namespaces, mounts), to other processes (ptrace and kin) and to the
// kernel's largest attack surface (bpf, perf, io_uring, which also performs socket operations
// without socket(), userfaultfd, modules, kexec, modify_ldt), to memory outside the disk budget
// and RLIMIT_AS (memfd; System V shared memory, message queues and semaphores, POSIX message
// queues: kernel memory that no file-system size and no address-space limit counts, and that the
// IPC namespace's defaults leave unbounded; the private /tmp is the only file system it can
// write), and to watching the host's activity through the read-only mounts (inotify, fanotify).
// Names this architecture lacks are skipped.
var seccompDenied = []string{
	"socket", "socketcall", // socketcall: every socket call, on the ABIs that multiplex them (386, s390x)
	// A socketpair's own socket needs none of these: they name, or wait for, another socket (a
	// datagram sent with a path reaches any named socket the attester can see). sendto is denied
	// only with a destination (below); a plain send on the pair stays.
	"connect", "bind", "listen", "accept", "accept4", "sendmsg", "sendmmsg",
	// Linux AIO: the kernel's pool of AIO events (fs.aio-max-nr) is one for the whole machine.
	"io_setup", "io_destroy", "io_submit", "io_cancel", "io_getevents", "io_pgetevents", "io_pgetevents_time64",
	// File locks reach the host's own files through the read-only mounts: a lock held on one makes
	// host processes wait. fcntl's lock and lease commands are denied below.
	"flock",
	"keyctl", "add_key", "request_key",
	"mount", "umount", "umount2", "pivot_root", "chroot", "unshare", "setns",
	"fsopen", "fsconfig", "fsmount", "fspick", "open_tree", "move_mount", "mount_setattr",
	"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp",
	"bpf", "perf_event_open", "userfaultfd", "fanotify_init",
	"memfd_create", "memfd_secret",
	"shmget", "shmat", "shmdt", "shmctl", "msgget", "msgsnd", "msgrcv", "msgctl",
	"semget", "semop", "semtimedop", "semtimedop_time64", "semctl", "ipc",
	"mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
	"mq_timedsend_time64", "mq_timedreceive_time64",
	"inotify_init", "inotify_init1", "inotify_add_watch",
	"modify_ldt", "open_tree_attr",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
	"open_by_handle_at", "name_to_handle_at",
	"swapon", "swapoff", "reboot", "acct", "quotactl", "quotactl_fd", "syslog", "vhangup", "uselib", "iopl", "ioperm",
}

// fcntlLocks are the fcntl commands that take a lock or a lease (F_GETLK and F_OFD_GETLK only ask).
// 13 and 14 are F_SETLK64 and F_SETLKW64 on 32-bit ABIs (unused elsewhere).
var fcntlLocks = []uint64{unix.F_SETLK, unix.F_SETLKW, 13, 14, unix.F_OFD_SETLK, unix.F_OFD_SETLKW, unix.F_SETLEASE}

// cloneNamespaces are the clone flags that would make new namespaces.
var cloneNamespaces = []uint64{unix.CLONE_NEWNS, unix.CLONE_NEWUSER, unix.CLONE_NEWPID, unix.CLONE_NEWNET,
	unix.CLONE_NEWIPC, unix.CLONE_NEWUTS, unix.CLONE_NEWCGROUP}

// loadSeccomp installs the attester's system-call filter on this thread (no_new_privs is set).
// A deny list, because the attester is any program: what it denies is a class (every socket but
// a Unix socketpair, every keyring call, every namespace and mount call), not calls seen in use.
func loadSeccomp() error {
	info, err := arch.GetInfo("")
	if err != nil {
		return err
	}
	var names []string
	for _, n := range seccompDenied {
		if _, ok := info.SyscallNames[n]; ok {
			names = append(names, n)
		}
	}
	conds := []seccomp.NameWithConditions{
		{Name: "socketpair", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: unix.AF_UNIX}}},
	}
	// sendto with a destination address (argument 4) names another socket.
	conds = append(conds, seccomp.NameWithConditions{Name: "sendto", Conditions: seccomp.ArgumentConditions{{Argument: 4, Operation: seccomp.NotEqual, Value: 0}}})
	for _, name := range []string{"fcntl", "fcntl64"} {
		if _, ok := info.SyscallNames[name]; !ok {
			continue
		}
		for _, cmd := range fcntlLocks {
			conds = append(conds, seccomp.NameWithConditions{Name: name, Conditions: seccomp.ArgumentConditions{{Argument: 1, Operation: seccomp.Equal, Value: cmd}}})
		}
	}
	// personality(0xffffffff) only asks for the current one; any other value changes how the
	// kernel treats the process (address-space layout, READ_IMPLIES_EXEC). The kernel reads 32
	// bits and the filter sees 64, so the query comes as 0xffffffff or sign-extended: every other
	// value is denied.
	conds = append(conds,
		seccomp.NameWithConditions{Name: "personality", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.LessThan, Value: 0xffffffff}}},
		seccomp.NameWithConditions{Name: "personality", Conditions: seccomp.ArgumentConditions{
			{Argument: 0, Operation: seccomp.GreaterThan, Value: 0xffffffff},
			{Argument: 0, Operation: seccomp.NotEqual, Value: 0xffffffffffffffff},
		}})
	for _, f := range cloneNamespaces {
		conds = append(conds, seccomp.NameWithConditions{Name: "clone", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsSet, Value: f}}})
	}
	policy := seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: []seccomp.SyscallGroup{
		// clone3 passes its flags in memory a filter cannot read: ENOSYS makes libc fall back to clone.
		{Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS), Names: []string{"clone3"}},
		{Action: seccomp.ActionErrno | seccomp.Action(unix.EPERM), Names: names, NamesWithCondtions: conds},
	}}
	// The library's filter lets calls of another architecture through (a 64-bit process can make
	// 32-bit calls); a second filter kills the process that tries. Filters stack: the strictest wins.
	// It also answers ENOSYS to every call newer than the library's table (as an older kernel
	// would, so libraries fall back): a system call added to the kernel after this filter was
	// written is a door nobody has looked at (file_setattr, for one), so it is shut.
	if err := seccomp.LoadFilter(seccomp.Filter{NoNewPrivs: true, Policy: policy}); err != nil {
		return err
	}
	newest := 0
	for _, nr := range info.SyscallNames {
		newest = max(newest, nr)
	}
	prog := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 4}, // seccomp_data.arch
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 1, Jf: 0, K: uint32(info.ID)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_KILL_PROCESS},
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JGT | unix.BPF_K, Jt: 0, Jf: 1, K: uint32(newest)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); e != 0 {
		return fmt.Errorf("cannot load the architecture filter: %v", e)
	}
	return nil
}
