package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/okf-tools/okf/attest"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain registers the real okf as a command of the test binary, so each testscript session runs
// okf exactly as a user's shell would.
func TestMain(m *testing.M) {
	attest.SandboxMain() // the test binary is also the sandbox launcher
	testscript.Main(m, map[string]func(){
		"okf": func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr, os.Getenv)) },
	})
}

// TestScript runs every testdata/script/*.txtar session. Run with -u to refresh expected output
// after a deliberate change, then read the diff.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: os.Getenv("OKF_UPDATE_SCRIPTS") != "",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":       exitsCmd,
			"sqlite-exec": sqliteExecCmd,
			"mkfile":      mkfileCmd,
			"sparse":      sparseCmd,
			"mkfifo":      mkfifoCmd,
			"mkcopies":    mkcopiesCmd,
		},
		Setup: func(e *testscript.Env) error {
			e.Setenv("OKF_NOW", "")
			e.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}

// exitsCmd is "exits CODE COMMAND [ARGS...]": it runs the command like exec, keeps its stdout and
// stderr for the assertions that follow, and fails unless it exited with exactly CODE. okf's exit
// codes are part of its interface (0 clean, 1 findings, 2 usage, 3 fatal), and "! exec" alone
// cannot tell them apart.
func exitsCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// mkfileCmd is "mkfile DST SRC": it writes the content of SRC to DST (making its folders). DST is read as the inside of
// a Go string literal ('evil\n::error.md' names a file with a line break), and every \xNN and
// \uNNNN in SRC's content becomes that character. A txtar archive cannot name a file with a line break nor hold
// an ESC byte legibly; hostile names and content are made at test time this way.
func mkfileCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mkfile DST SRC")
	}
	dst, err := strconv.Unquote(`"` + strings.ReplaceAll(args[0], `"`, `\"`) + `"`)
	if err != nil {
		ts.Fatalf("mkfile: %q: %v", args[0], err)
	}
	content := escapeSeq.ReplaceAllStringFunc(ts.ReadFile(args[1]), func(m string) string {
		n, _ := strconv.ParseUint(m[2:], 16, 32)
		return string(rune(n))
	})
	if err := os.MkdirAll(filepath.Dir(ts.MkAbs(dst)), 0o755); err != nil {
		ts.Fatalf("mkfile: %v", err)
	}
	if err := os.WriteFile(ts.MkAbs(dst), []byte(content), 0o644); err != nil {
		ts.Fatalf("mkfile: %v", err)
	}
}

var escapeSeq = regexp.MustCompile(`\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}`)

// mkcopiesCmd is "mkcopies N DST SRC": it writes N files made from SRC, the i-th (from 1) at DST
// with every {i} replaced by i written with two digits, in the name and in the content. Many files
// with the same finding (aggregation, GitHub's cap on annotations) are made at test time this way.
func mkcopiesCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: mkcopies N DST SRC")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		ts.Fatalf("mkcopies: N must be a positive number, got %q", args[0])
	}
	src := ts.ReadFile(args[2])
	for i := 1; i <= n; i++ {
		num := fmt.Sprintf("%02d", i)
		dst := ts.MkAbs(strings.ReplaceAll(args[1], "{i}", num))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			ts.Fatalf("mkcopies: %v", err)
		}
		if err := os.WriteFile(dst, []byte(strings.ReplaceAll(src, "{i}", num)), 0o644); err != nil {
			ts.Fatalf("mkcopies: %v", err)
		}
	}
}
