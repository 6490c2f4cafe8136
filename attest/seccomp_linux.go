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
// without socket(), userfaultfd, modules, kexec), and to memory files outside the disk budget
// (memfd; the private /tmp is the only file system it can write). Names this architecture lacks
// are skipped.
var seccompDenied = []string{
	"socket",
	"keyctl", "add_key", "request_key",
	"mount", "umount", "umount2", "pivot_root", "chroot", "unshare", "setns",
	"fsopen", "fsconfig", "fsmount", "fspick", "open_tree", "move_mount", "mount_setattr",
	"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp",
	"bpf", "perf_event_open", "userfaultfd", "fanotify_init",
	"memfd_create", "memfd_secret",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
	"open_by_handle_at", "name_to_handle_at",
	"swapon", "swapoff", "reboot", "acct", "quotactl", "quotactl_fd", "syslog", "vhangup", "uselib", "iopl", "ioperm",
}

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
	if err := seccomp.LoadFilter(seccomp.Filter{NoNewPrivs: true, Policy: policy}); err != nil {
		return err
	}
	prog := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 4}, // seccomp_data.arch
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 1, Jf: 0, K: uint32(info.ID)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_KILL_PROCESS},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); e != 0 {
		return fmt.Errorf("cannot load the architecture filter: %v", e)
	}
	return nil
}
