package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// launcherEnv, set to 1, makes the bench binary a launcher: it reads run requests on standard
// input, one JSON object a line, runs each okf process and answers with its measure.
//
// The peak RSS a child reports (ru_maxrss) is at least the peak RSS of the process that started it:
// Go starts a child with clone(CLONE_VM|CLONE_VFORK), so until exec the child shares its parent's
// memory, and Linux carries that memory's high-water mark into the child's maxrss at exec. The
// bench, having written bundles of tens of megabytes, would set a floor of its own size under every
// figure (measured: a parent that once held 200 MiB made `okf --version` report 203 MiB). So the
// okf processes are started by a launcher started first, while the bench is still small.
const launcherEnv = "OKF_BENCH_LAUNCHER"

type runRequest struct {
	Bin  string   `json:"bin"`
	Args []string `json:"args"`
	// OKExit is an exit code besides 0 and 1 that is not a failure (the Rust tool's 65, "not
	// conformant"); 0 for none.
	OKExit int `json:"ok_exit,omitempty"`
}

type runAnswer struct {
	CPU  time.Duration `json:"cpu"`
	Wall time.Duration `json:"wall"`
	RSS  int64         `json:"rss"`
	Err  string        `json:"err,omitempty"`
}

// serveLauncher is the launcher's loop.
func serveLauncher(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var req runRequest
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			return err
		}
		m, err := measureRun(req.Bin, req.Args, req.OKExit)
		a := runAnswer{CPU: m.cpu, Wall: m.wall, RSS: m.rss}
		if err != nil {
			a.Err = err.Error()
		}
		if err := enc.Encode(a); err != nil {
			return err
		}
	}
	return sc.Err()
}

// launcher is the bench's side of a launcher process.
type launcher struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *json.Decoder
}

func startLauncher() (*launcher, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), launcherEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &launcher{cmd: cmd, in: in, out: json.NewDecoder(out)}, nil
}

func (l *launcher) run(bin string, args []string, okExit int) (measure, error) {
	b, err := json.Marshal(runRequest{Bin: bin, Args: args, OKExit: okExit})
	if err != nil {
		return measure{}, err
	}
	if _, err := l.in.Write(append(b, '\n')); err != nil {
		return measure{}, fmt.Errorf("launcher: %v", err)
	}
	var a runAnswer
	if err := l.out.Decode(&a); err != nil {
		return measure{}, fmt.Errorf("launcher: %v", err)
	}
	if a.Err != "" {
		return measure{}, errors.New(a.Err)
	}
	return measure{cpu: a.CPU, wall: a.Wall, rss: a.RSS}, nil
}

func (l *launcher) close() {
	l.in.Close()
	l.cmd.Wait()
}
