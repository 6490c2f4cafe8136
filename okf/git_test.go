package okf

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// gitTestRepo makes a repository at a temporary folder with kb/a.md and kb/sub/b.md committed,
// the last commit carrying a (fake) PGP signature, so that anything that verifies signatures runs
// gpg.program. It returns the top.
func gitTestRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the marker programs are shell scripts")
	}
	top := t.TempDir()
	for name, text := range map[string]string{
		"kb/a.md":     "---\ntype: Note\n---\nA.\n",
		"kb/sub/b.md": "---\ntype: Note\n---\nB.\n",
		"README.txt":  "not the bundle\n",
	} {
		p := filepath.Join(top, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitSetup(t, top, "init", "-q", "-b", "main")
	gitSetup(t, top, "add", "-A")
	gitSetup(t, top, "commit", "-q", "-m", "one")
	commit := gitSetup(t, top, "cat-file", "commit", "HEAD")
	head, body, _ := strings.Cut(commit, "\n\n")
	signed := head + "\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\n" + body
	cmd := exec.Command("git", "hash-object", "-t", "commit", "-w", "--stdin")
	cmd.Dir, cmd.Env, cmd.Stdin = top, gitSetupEnv(), strings.NewReader(signed)
	id, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	gitSetup(t, top, "update-ref", "HEAD", strings.TrimSpace(string(id)))
	return top
}

func gitSetupEnv() []string {
	return append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_DATE=2024-02-03T04:05:06Z", "GIT_COMMITTER_DATE=2024-02-03T04:05:06Z")
}

func gitSetup(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, gitSetupEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// markerProgram writes an executable that appends its arguments to the file it returns.
func markerProgram(t *testing.T) (prog, marker string) {
	t.Helper()
	d := t.TempDir()
	marker = filepath.Join(d, "MARKER")
	prog = filepath.Join(d, "okf-evil")
	script := "#!/bin/sh\necho \"okf-evil $*\" >> '" + marker + "'\ncat >/dev/null 2>&1\nexit 0\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return prog, marker
}

// hostileValue is what a hostile config sets key to: the marker program, or for a key that does
// not name a program, the value that would make git run one, reach the network or read another
// repository.
func hostileValue(key, prog, dir string) string {
	switch {
	case strings.HasPrefix(key, "protocol."):
		return "always"
	case strings.HasPrefix(key, "pager."), key == "log.showSignature", key == "log.follow", key == "log.mailmap", key == "maintenance.auto":
		return "true"
	case key == "color.ui":
		return "always"
	case key == "help.autoCorrect":
		return "immediate"
	case key == "gc.auto":
		return "1"
	case key == "safe.bareRepository":
		return "all"
	case key == "core.hooksPath":
		return dir
	case key == "core.attributesFile":
		return filepath.Join(dir, "attributes")
	case key == "credential.helper":
		return "!" + prog
	}
	return prog
}

// TestGitOverridesWin: every key of GitOverrides, set hostile in the real repository's own
// .git/config and again in a file it includes (include.path, the way a checkout's file could get
// into it), is seen by git as okf's value, and no git call okf makes runs the program, even with
// log.showSignature on a signed commit, textconv and filter drivers for every file, an external
// diff, hooks, and GIT_* variables in okf's environment pointing git elsewhere.
func TestGitOverridesWin(t *testing.T) {
	top := gitTestRepo(t)
	prog, marker := markerProgram(t)
	hooks := t.TempDir()
	for _, h := range []string{"pre-commit", "post-checkout", "post-index-change", "reference-transaction", "fsmonitor-watchman", "pre-auto-gc"} {
		if err := os.WriteFile(filepath.Join(hooks, h), []byte("#!/bin/sh\n"+prog+" hook "+h+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(hooks, "attributes"), []byte("* filter=evil diff=evil merge=evil\n"), 0o644)
	os.WriteFile(filepath.Join(top, ".gitattributes"), []byte("* filter=evil diff=evil merge=evil\n"), 0o644)

	var cfg strings.Builder
	for _, s := range GitOverrides() {
		if s.Key == "" || strings.ContainsAny(s.Key, " \n\"") {
			t.Fatalf("odd key %q", s.Key)
		}
		section, name := s.Key[:strings.LastIndex(s.Key, ".")], s.Key[strings.LastIndex(s.Key, ".")+1:]
		if i := strings.Index(section, "."); i >= 0 {
			section = section[:i] + ` "` + section[i+1:] + `"`
		}
		cfg.WriteString("[" + section + "]\n\t" + name + " = " + hostileValue(s.Key, prog, hooks) + "\n")
	}
	cfg.WriteString("[diff \"evil\"]\n\ttextconv = " + prog + "\n\tcommand = " + prog + "\n")
	cfg.WriteString("[filter \"evil\"]\n\tclean = " + prog + "\n\tsmudge = " + prog + "\n\tprocess = " + prog + "\n\trequired = true\n")
	cfg.WriteString("[core]\n\tworktree = " + hooks + "\n\tgitProxy = " + prog + "\n")
	included := filepath.Join(top, "shared.gitconfig") // a file of the work tree: the checkout's
	if err := os.WriteFile(included, []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(top, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(cfg.String() + "[include]\n\tpath = ../shared.gitconfig\n")
	f.Close()

	// okf's own environment may carry GIT_* variables: none reaches git.
	planted := t.TempDir()
	gitSetup(t, planted, "init", "-q", "--bare")
	t.Setenv("GIT_DIR", planted)
	t.Setenv("GIT_WORK_TREE", planted)
	t.Setenv("GIT_CONFIG_PARAMETERS", "'gpg.program'='"+prog+"' 'log.showsignature'='true'")
	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "core.pager")
	t.Setenv("GIT_CONFIG_VALUE_0", prog)
	t.Setenv("GIT_EXTERNAL_DIFF", prog)
	t.Setenv("GIT_PAGER", prog)
	t.Setenv("GIT_EXEC_PATH", hooks)
	t.Setenv("GIT_TRACE", filepath.Join(hooks, "trace"))

	repo, err := OpenGitRepo(filepath.Join(top, "kb"))
	if err != nil {
		t.Fatal(err)
	}
	// What git sees: okf's value for every key (the last one read wins, and for list-valued keys
	// such as credential.helper an empty one clears the list before it).
	for _, s := range GitOverrides() {
		cmd := exec.Command(repo.exe, repo.gitArgs("config", []string{"--get", s.Key})...)
		cmd.Dir, cmd.Env = repo.top, gitEnv(repo.top)
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("git config --get %s: %v", s.Key, err)
			continue
		}
		if got := strings.TrimSuffix(string(out), "\n"); got != s.Value {
			t.Errorf("%s: git sees %q, want okf's %q", s.Key, got, s.Value)
		}
	}

	// Every call okf makes, on a signed commit with every driver configured.
	if d, ok, err := repo.LastCommitDate("a.md"); err != nil || !ok || d.Format("2006-01-02") != "2024-02-03" {
		t.Errorf("LastCommitDate = %v, %v, %v", d, ok, err)
	}
	if _, ok, err := repo.LastCommitDate("sub/b.md"); err != nil || !ok {
		t.Errorf("LastCommitDate(sub/b.md) = %v, %v", ok, err)
	}
	if h, err := repo.Head(); err != nil || len(h) != 12 {
		t.Errorf("Head = %q, %v", h, err)
	}
	tree, err := repo.Tree("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	list, err := repo.ListTree(tree)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range list {
		paths = append(paths, e.Path)
	}
	if strings.Join(paths, ",") != "a.md,sub/b.md" {
		t.Errorf("ListTree paths = %v, want a.md,sub/b.md", paths)
	}
	blobs, err := repo.ReadBlobs(list)
	if err != nil || len(blobs) != 2 || string(blobs[0]) != "---\ntype: Note\n---\nA.\n" {
		t.Errorf("ReadBlobs = %q, %v", blobs, err)
	}
	if data, err := os.ReadFile(marker); err == nil {
		t.Errorf("a program named by config ran:\n%s", data)
	}
	if _, err := os.Stat(filepath.Join(hooks, "trace")); err == nil {
		t.Errorf("GIT_TRACE reached git")
	}

	// Control: git run as okf ran it before (discovery, three overrides) runs the program.
	cmd := exec.Command("git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "protocol.allow=never",
		"--no-pager", "log", "-1", "--format=%cI")
	cmd.Dir = filepath.Join(top, "kb")
	cmd.Env = gitSetupEnv()
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_EXEC_PATH", "GIT_TRACE", "GIT_PAGER", "GIT_EXTERNAL_DIFF"} {
		os.Unsetenv(k)
	}
	cmd.Env = gitSetupEnv()
	out, err := cmd.CombinedOutput()
	if _, err2 := os.Stat(marker); err2 != nil {
		t.Errorf("control: the hostile config ran nothing (the test proves nothing): %v\n%s", err, out)
	}
}

// TestGitPlantedRepo: a folder from the named one up to (not including) the checkout's top that
// has git's bare-repository shape is refused, naming the folder; look-alikes that git would not
// take are not.
func TestGitPlantedRepo(t *testing.T) {
	top := gitTestRepo(t)
	mk := func(dir string, entries ...string) string {
		d := filepath.Join(top, dir)
		for _, e := range entries {
			p := filepath.Join(d, e)
			if strings.HasSuffix(e, "/") {
				os.MkdirAll(p, 0o755)
				continue
			}
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("ref: refs/heads/main\n"), 0o644)
		}
		return d
	}
	cases := []struct {
		name, planted, open string
		entries             []string
		refused             bool
	}{
		{"bare layout in the folder", "p1", "p1", []string{"HEAD", "objects/", "refs/"}, true},
		{"bare layout above the folder", "p2", "p2/kb/deep", []string{"HEAD", "objects/", "refs/", "kb/deep/x.md"}, true},
		{"objects and refs as files", "p3", "p3", []string{"HEAD", "objects", "refs"}, true},
		{"a linked worktree's git directory", "p4", "p4", []string{"HEAD", "commondir"}, true},
		{"HEAD and objects only", "p5", "p5", []string{"HEAD", "objects/"}, true},
		{"HEAD alone", "n1", "n1", []string{"HEAD"}, false},
		{"objects and refs without HEAD", "n2", "n2", []string{"objects/", "refs/"}, false},
		{"a bare layout below the folder", "n3/sub", "n3", []string{"HEAD", "objects/", "refs/"}, false},
	}
	for _, c := range cases {
		mk(c.planted, c.entries...)
		os.MkdirAll(filepath.Join(top, c.open), 0o755)
		_, err := OpenGitRepo(filepath.Join(top, c.open))
		var pe *PlantedRepoError
		switch {
		case c.refused && !errors.As(err, &pe):
			t.Errorf("%s: err = %v, want a PlantedRepoError", c.name, err)
		case c.refused && (pe.Dir != filepath.Join(top, c.planted) || !errors.Is(err, ErrPlantedRepo)):
			t.Errorf("%s: names %q, want %q", c.name, pe.Dir, filepath.Join(top, c.planted))
		case !c.refused && err != nil:
			t.Errorf("%s: err = %v, want none", c.name, err)
		}
	}
	// Reached through a link inside the checkout: the folder it leads to is what counts.
	if err := os.Symlink(filepath.Join(top, "p2", "kb"), filepath.Join(top, "viaLink")); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenGitRepo(filepath.Join(top, "viaLink", "deep")); !errors.Is(err, ErrPlantedRepo) {
		t.Errorf("through a link: err = %v, want ErrPlantedRepo", err)
	}
	// The top itself may hold such files: git looks at its .git first, and okf names it.
	mk(".", "HEAD", "objects/", "refs/")
	if _, err := OpenGitRepo(top); err != nil {
		t.Errorf("top with HEAD, objects and refs: %v", err)
	}
	// The folder is named as the caller named it.
	t.Chdir(top)
	_, err := OpenGitRepo(filepath.Join("p2", "kb", "deep"))
	if err == nil || !strings.Contains(err.Error(), `"p2" looks like a git repository`) {
		t.Errorf("relative name: %v", err)
	}
}

// TestGitCheckout: a linked worktree (its .git a file) is a checkout; a folder in none, inside
// .git, or reached through a link out of the checkout is ErrNoCheckout.
func TestGitCheckout(t *testing.T) {
	top := gitTestRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	gitSetup(t, top, "worktree", "add", "-q", wt)
	repo, err := OpenGitRepo(filepath.Join(wt, "kb"))
	if err != nil {
		t.Fatalf("linked worktree: %v", err)
	}
	if _, ok, err := repo.LastCommitDate("a.md"); !ok || err != nil {
		t.Errorf("linked worktree: LastCommitDate = %v, %v", ok, err)
	}
	if repo.Prefix() != "kb/" {
		t.Errorf("Prefix = %q", repo.Prefix())
	}

	for name, dir := range map[string]string{
		"no checkout":     t.TempDir(),
		"inside .git":     filepath.Join(top, ".git", "objects"),
		"missing folder":  filepath.Join(top, "nowhere"),
		"linked out":      filepath.Join(top, "out"),
		"linked out, sub": filepath.Join(top, "out", "x"),
	} {
		if name == "linked out" {
			outside := t.TempDir()
			os.MkdirAll(filepath.Join(outside, "x"), 0o755)
			if err := os.Symlink(outside, dir); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := OpenGitRepo(dir); !errors.Is(err, ErrNoCheckout) {
			t.Errorf("%s: err = %v, want ErrNoCheckout", name, err)
		}
	}
}

// TestGitBounded: a git answer over its bound stops git and fails the call, and only the commands
// okf names run.
func TestGitBounded(t *testing.T) {
	top := gitTestRepo(t)
	repo, err := OpenGitRepo(top)
	if err != nil {
		t.Fatal(err)
	}
	tree, _ := repo.Tree("HEAD")
	list, err := repo.ListTree(tree)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.run(strings.NewReader(list[0].ID+"\n"), 10, "cat-file", "--batch"); err == nil || !strings.Contains(err.Error(), "answered more than") {
		t.Errorf("over the bound: %v", err)
	}
	// A listing that lies about a size is an error, not a longer read.
	bad := list[:1]
	bad[0].Size = 1
	if _, err := repo.ReadBlobs(bad); err == nil {
		t.Errorf("a wrong size was read")
	}
	if _, err := repo.run(nil, 100, "config", "--list"); err == nil {
		t.Errorf("git config ran through the door")
	}
	// Paths are literal: pathspec magic and globs in a post's name match nothing else.
	for _, name := range []string{"*.md", ":(top)README.txt", ":(glob)**/a.md", "kb/[a]*"} {
		if _, ok, err := repo.LastCommitDate(name); ok || err != nil {
			t.Errorf("LastCommitDate(%q) = %v, %v: want no commit", name, ok, err)
		}
	}
	if _, ok, _ := repo.LastCommitDate("kb/a.md"); !ok {
		t.Errorf("LastCommitDate(kb/a.md): no commit")
	}
	if _, err := repo.Tree("--output=/tmp/x"); !errors.Is(err, ErrUnknownRevision) {
		t.Errorf("an option as a revision: %v", err)
	}
}

// TestGitNoLazyFetch: in a partial clone, a blob okf asks for that is not there is an error, never
// a fetch: the promisor remote's upload-pack program (remote.<name>.uploadpack, which a lazy fetch
// runs, and which no -c can name in advance) never runs.
func TestGitNoLazyFetch(t *testing.T) {
	server := gitTestRepo(t)
	gitSetup(t, server, "config", "uploadpack.allowFilter", "true")
	gitSetup(t, server, "config", "uploadpack.allowAnySHA1InWant", "true")
	_, marker := markerProgram(t)
	prog := marker + ".sh" // answers nothing and exits, so that the control's git does not wait
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho upload-pack >> '"+marker+"'\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	gitSetup(t, t.TempDir(), "clone", "-q", "--no-checkout", "--filter=blob:none", "file://"+server, clone)
	gitSetup(t, clone, "config", "remote.origin.uploadpack", prog)
	os.MkdirAll(filepath.Join(clone, "kb"), 0o755)

	repo, err := OpenGitRepo(filepath.Join(clone, "kb"))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := repo.Tree("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	// ls-tree -l needs each blob's size: it fails already (ReadBlobs would too).
	if list, err := repo.ListTree(tree); err == nil {
		if _, err := repo.ReadBlobs(list); err == nil {
			t.Errorf("a missing blob was read: fetched?")
		}
	}
	if data, err := os.ReadFile(marker); err == nil {
		t.Errorf("the promisor remote's upload-pack ran:\n%s", data)
	}

	// Control: plain git fetches lazily, running it.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "cat-file", "-p", "HEAD:kb/a.md")
	cmd.Dir, cmd.Env, cmd.WaitDelay = clone, gitSetupEnv(), time.Second
	cmd.Run()
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("control: plain git ran no upload-pack (the test proves nothing)")
	}
}

// TestGitOtherOwner: a checkout owned by another user (a CI container running as root over the
// runner's workspace) is read, since okf names the repository and git's ownership check guards only
// its discovery. Needs root, to give the checkout away.
func TestGitOtherOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the checkout to another user")
	}
	top := gitTestRepo(t)
	if err := filepath.Walk(top, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 4321, 4321)
	}); err != nil {
		t.Fatal(err)
	}
	repo, err := OpenGitRepo(filepath.Join(top, "kb"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := repo.LastCommitDate("a.md"); !ok || err != nil {
		t.Errorf("a checkout owned by another user: LastCommitDate = %v, %v", ok, err)
	}
	if _, err := repo.Head(); err != nil {
		t.Errorf("a checkout owned by another user: Head: %v", err)
	}
}

// TestGitBlobsTotal: one blob listed under many paths costs git nothing to store, but okf its size
// each time it is read: ReadBlobs refuses past MaxGitBlobsTotal in all, before git runs.
func TestGitBlobsTotal(t *testing.T) {
	top := gitTestRepo(t)
	repo, err := OpenGitRepo(filepath.Join(top, "kb"))
	if err != nil {
		t.Fatal(err)
	}
	n := int(MaxGitBlobsTotal/(1<<20)) + 1
	entries := make([]GitTreeEntry, n)
	for i := range entries {
		entries[i] = GitTreeEntry{Type: "blob", ID: strings.Repeat("a", 40), Size: 1 << 20}
	}
	if _, err := repo.ReadBlobs(entries); err == nil || !strings.Contains(err.Error(), "MaxGitBlobsTotal") {
		t.Errorf("%d MiB of blobs: err = %v, want the total bound", n, err)
	}
}

// TestGitNestedThroughLink: a folder named through a link in the checkout into a repository CI
// cloned inside it is read against the checkout's own repository, not the nested one's.
func TestGitNestedThroughLink(t *testing.T) {
	top := gitTestRepo(t)
	nested := filepath.Join(top, "tools")
	os.MkdirAll(filepath.Join(nested, "kbx"), 0o755)
	gitSetup(t, nested, "init", "-q", "-b", "main")
	if err := os.Symlink("tools", filepath.Join(top, "mt")); err != nil {
		t.Fatal(err)
	}
	repo, err := OpenGitRepo(filepath.Join(top, "mt", "kbx"))
	if err != nil {
		t.Fatal(err)
	}
	if real, _ := filepath.EvalSymlinks(top); repo.Top() != real {
		t.Errorf("top = %q, want the checkout %q", repo.Top(), top)
	}
}

// TestGitHeadEmpty: a repository with no commit yet has no HEAD to name, which is not an error.
func TestGitHeadEmpty(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	top := t.TempDir()
	gitSetup(t, top, "init", "-q", "-b", "main")
	repo, err := OpenGitRepo(top)
	if err != nil {
		t.Fatal(err)
	}
	if h, err := repo.Head(); h != "" || err != nil {
		t.Errorf("Head = %q, %v; want \"\", nil", h, err)
	}
}
