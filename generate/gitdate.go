package generate

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"time"
)

// gitTimeout bounds each git call, so a broken repository cannot hang a run.
const gitTimeout = 20 * time.Second

// safeGit keeps what a checkout configures from running (fsmonitor, hooks) and git from reaching
// the network (a lazy fetch from a promisor remote), as trust does.
var safeGit = []string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "protocol.allow=never"}

func safeGitEnv() []string {
	return append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_NO_LAZY_FETCH=1", "GIT_OPTIONAL_LOCKS=0")
}

// GitDate returns the commit date of the last commit that touched file (a path relative to dir),
// running `git log -1 --format=%cI -- FILE` with dir as the working directory. ok is false when git
// is missing, dir is not in a repository, or the file has no commit.
func GitDate(dir, file string) (time.Time, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append(safeGit, "--no-pager", "log", "-1", "--format=%cI", "--", file)...)
	cmd.Dir = dir
	cmd.Env = safeGitEnv()
	out, err := cmd.Output()
	if err != nil {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, string(bytes.TrimSpace(out)))
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// inGitRepo reports whether dir is inside a git work tree that git will read.
func inGitRepo(dir string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append(safeGit, "rev-parse", "--is-inside-work-tree")...)
	cmd.Dir = dir
	cmd.Env = safeGitEnv()
	out, err := cmd.Output()
	return err == nil && bytes.Equal(bytes.TrimSpace(out), []byte("true"))
}
