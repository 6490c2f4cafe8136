package okf

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/okf-tools/okf/internal/bytesize"
	"github.com/okf-tools/okf/internal/escape"
)

// GitRepo is the one door through which okf runs git: the git repository of a checkout, named
// explicitly. okf runs on pull requests, and a pull request controls every file below the folders
// okf is given, including files that make a folder look like a git repository (HEAD, objects/,
// refs/, a config naming programs) and .gitattributes. Left to discover a repository, git would
// take such a folder for one: read its history (fake dates, a fake trust base) and run the programs
// its config names. So okf never lets git discover anything: the repository is the checkout's own
// (the nearest folder holding .git, which no git tree can contain), passed as --git-dir and
// --work-tree; a folder between the named one and that top shaped like a git directory is refused
// (ErrPlantedRepo); system and global config are not read; every configuration key that names a
// program is overridden (GitOverrides) whatever config sets it, repository config and its includes
// too; and okf runs only plumbing that applies no attribute-keyed driver (see gitDriverFree). Every
// call has a timeout and a bound on what it answers. Nothing else in okf executes git.
type GitRepo struct {
	exe    string // git, resolved on PATH
	top    string // the work tree's top, symbolic links resolved
	gitDir string // top/.git: a folder, or a file naming one (worktree, submodule)
	prefix string // the opened folder relative to top, slash-separated, "" or ending in "/"
}

// GitTimeout bounds each git call, so a broken or huge repository cannot hang a run.
var GitTimeout = 20 * time.Second

// Bounds on what one git call may answer. A date or an object name is a line; a listing of a tree
// is bounded generously (two million paths of 60 bytes); cat-file answers exactly the bytes
// ls-tree announced. Past a bound git is stopped and the call fails.
const (
	gitLineLimit      = 4 << 10
	GitMaxListing     = 128 << 20
	gitStderrLimit    = 4 << 10
	gitBatchHeaderMax = 200
)

// Errors of the git door, for errors.Is: git missing, no checkout, a planted repository.
var (
	// ErrNoGit is returned (wrapped) when git is not installed.
	ErrNoGit = errors.New("git is not installed")
	// ErrNoCheckout is returned (wrapped) when a folder is in no git checkout: no folder from it
	// up holds .git, or it lies outside that checkout's work tree (a link leading out, or inside
	// .git itself).
	ErrNoCheckout = errors.New("not in a git work tree")
	// ErrPlantedRepo is returned (wrapped, as a *PlantedRepoError) when a folder between the named
	// one and the checkout's top looks like a git directory: a checkout's content planted it.
	ErrPlantedRepo = errors.New("a folder in the checkout looks like a git repository")
)

// PlantedRepoError names the folder inside a checkout that looks like a git directory (the bare
// layout git's discovery accepts: HEAD with objects/ and refs/, or with a commondir file). A
// pull request can commit such files; git, asked to find "the repository" there, would use them.
// It is an ErrPlantedRepo (errors.Is).
type PlantedRepoError struct {
	Dir   string   // the folder, as the caller named it (joined with ".." when above it)
	Top   string   // the checkout's top
	Holds []string // what makes it look like one (HEAD, objects, refs, commondir)
}

// Error names the folder that looks like a git directory.
func (e *PlantedRepoError) Error() string {
	return fmt.Sprintf("%q looks like a git repository (it holds %s) inside the checkout %q: a pull request can commit such files, so okf does not use git for this folder", e.Dir, strings.Join(e.Holds, ", "), e.Top)
}

// Is makes errors.Is(err, ErrPlantedRepo) hold.
func (e *PlantedRepoError) Is(target error) bool { return target == ErrPlantedRepo }

// chosenGitError is a repository or a git program that the checkout's content chose: a submodule
// (its history is the repository .gitmodules names, which a pull request can change), or a git on
// PATH inside the checkout (npm run puts node_modules/.bin first). It is an ErrPlantedRepo.
type chosenGitError struct{ msg string }

func (e *chosenGitError) Error() string        { return e.msg }
func (e *chosenGitError) Is(target error) bool { return target == ErrPlantedRepo }

// superproject returns the checkout above top whose .git/modules holds the git directory top's
// .git file points to (top is then a submodule of it), or "".
func superproject(top string) string {
	data, err := os.ReadFile(filepath.Join(top, ".git"))
	if err != nil {
		return "" // a folder (or unreadable): not a submodule's gitdir file
	}
	line, _, _ := strings.Cut(string(data), "\n")
	gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return ""
	}
	gd = strings.TrimSpace(gd)
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(top, gd)
	}
	if r, err := filepath.EvalSymlinks(gd); err == nil {
		gd = r
	}
	for a := filepath.Dir(top); ; a = filepath.Dir(a) {
		if hasGit(a) {
			if mods, err := filepath.EvalSymlinks(filepath.Join(a, ".git", "modules")); err == nil && within(mods, gd) {
				return a
			}
		}
		if filepath.Dir(a) == a {
			return ""
		}
	}
}

// OpenGitRepo opens the git repository of the checkout holding dir (the nearest folder holding
// .git, found as write paths find it: walkPath, so not past a link in the checkout), after checking
// that dir lies inside its work tree and that no folder from dir up to (not including) the top
// looks like a git directory (a *PlantedRepoError). Errors wrap ErrNoGit, ErrNoCheckout or
// ErrPlantedRepo.
func OpenGitRepo(dir string) (*GitRepo, error) {
	exe, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoGit, err)
	}
	// The checkout as the kernel resolves dir, found as a write path's is (walkPath): a .git met
	// only past a link in the checkout (into a repository CI cloned inside it) is not it.
	w, err := walkPath(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %q cannot be resolved: %v", ErrNoCheckout, dir, unwrapPath(err))
	}
	top := w.checkout
	if top == "" {
		return nil, fmt.Errorf("%w: %q (no folder from it up holds .git)", ErrNoCheckout, dir)
	}
	if sup := superproject(top); sup != "" {
		return nil, &chosenGitError{fmt.Sprintf("%q is in a submodule (%s) of %s: its history is the repository .gitmodules names, which a pull request can change, so okf does not use git for this folder", dir, top, sup)}
	}
	// The git that runs must not be one a checkout holds (a PATH entry inside one: npm run puts
	// node_modules/.bin first), this one or any other, the one around it included: a bundle in a
	// repository cloned inside a pull request's checkout must not run the pull request's git.
	realExe, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return nil, &chosenGitError{fmt.Sprintf("the git on PATH (%s) cannot be resolved: %v", exe, unwrapPath(err))}
	}
	for _, p := range []string{exe, realExe} {
		if co := nearestGit(filepath.Dir(p)); co != "" {
			return nil, &chosenGitError{fmt.Sprintf("the git on PATH (%s) is inside the checkout %s: a pull request could have committed it, so okf does not run it", exe, co)}
		}
	}
	st, err := os.Lstat(filepath.Join(top, ".git"))
	if err != nil || !(st.IsDir() || st.Mode().IsRegular() || st.Mode()&fs.ModeSymlink != 0) {
		return nil, fmt.Errorf("%w: %q (%s is not a folder or a gitdir file)", ErrNoCheckout, dir, filepath.Join(top, ".git"))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %v", ErrNoCheckout, dir, err)
	}
	realTop, err1 := filepath.EvalSymlinks(top)
	realDir, err2 := filepath.EvalSymlinks(abs)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("%w: %q cannot be resolved: %v", ErrNoCheckout, dir, errors.Join(err1, err2))
	}
	if st, err := os.Stat(realDir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%w: %q is not a folder", ErrNoCheckout, dir)
	}
	rel, err := filepath.Rel(realTop, realDir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return nil, fmt.Errorf("%w: %q leads outside its checkout %q", ErrNoCheckout, dir, top)
	}
	if first, _, _ := strings.Cut(rel, string(filepath.Separator)); strings.EqualFold(first, ".git") {
		return nil, fmt.Errorf("%w: %q is inside the git directory of %q", ErrNoCheckout, dir, top)
	}
	for f := realDir; f != realTop && len(f) > len(realTop); f = filepath.Dir(f) {
		if holds := gitDirShape(f); holds != nil {
			up, _ := filepath.Rel(realDir, f)
			return nil, &PlantedRepoError{Dir: filepath.Clean(filepath.Join(dir, up)), Top: top, Holds: holds}
		}
	}
	r := &GitRepo{exe: exe, top: realTop, gitDir: filepath.Join(realTop, ".git")}
	if rel != "." {
		r.prefix = filepath.ToSlash(rel) + "/"
	}
	return r, nil
}

// gitDirShape says what in folder f makes it look like a git directory to git's discovery, or nil.
// git accepts a folder as a (bare) repository when it holds a HEAD and, in the folder a commondir
// file names or else in itself, objects and refs. Any HEAD with any of objects, refs or commondir
// counts here, whatever their kind (git takes an executable file named objects too): a superset.
func gitDirShape(f string) []string {
	if _, err := os.Lstat(filepath.Join(f, "HEAD")); err != nil {
		return nil
	}
	holds := []string{"HEAD"}
	for _, n := range []string{"objects", "refs", "commondir"} {
		if _, err := os.Lstat(filepath.Join(f, n)); err == nil {
			holds = append(holds, n)
		}
	}
	if len(holds) == 1 {
		return nil
	}
	return holds
}

// Top is the work tree's top (symbolic links resolved).
func (r *GitRepo) Top() string { return r.top }

// Prefix is the opened folder relative to Top, slash-separated: "" at the top, else ending in "/".
func (r *GitRepo) Prefix() string { return r.prefix }

// GitSetting is one `-c key=value` okf gives every git it runs.
type GitSetting struct{ Key, Value string }

// gitOverrides: see GitOverrides.
var gitOverrides = []GitSetting{
	// Keys whose value names a program git would run, from git-config(1) of git 2.39 (each with
	// a value that runs nothing: an empty program is not executed, ":" is git's no-op editor,
	// "cat" its no-pager, /dev/null an empty hooks folder).
	{"core.fsmonitor", "false"},
	{"core.hooksPath", "/dev/null"},
	{"core.pager", "cat"},
	{"core.editor", ":"},
	{"sequence.editor", ":"},
	{"core.askPass", ""},
	{"core.sshCommand", ""},
	{"core.alternateRefsCommand", ""},
	{"gpg.program", ""},
	{"gpg.openpgp.program", ""},
	{"gpg.x509.program", ""},
	{"gpg.ssh.program", ""},
	{"gpg.ssh.defaultKeyCommand", ""},
	{"diff.external", ""},
	{"diff.tool", ""},
	{"diff.guitool", ""},
	{"merge.tool", ""},
	{"merge.guitool", ""},
	{"credential.helper", ""}, // an empty value clears the list of helpers
	{"uploadpack.packObjectsHook", ""},
	{"interactive.diffFilter", ""},
	{"web.browser", ""},
	{"help.browser", ""},
	{"instaweb.browser", ""},
	{"instaweb.httpd", ""},
	{"man.viewer", ""},
	{"imap.tunnel", ""},
	{"sendemail.smtpServer", ""},
	{"sendemail.toCmd", ""},
	{"sendemail.ccCmd", ""},
	{"pager.log", "false"},
	{"pager.rev-parse", "false"},
	{"pager.ls-tree", "false"},
	{"pager.cat-file", "false"},
	// Keys that make git run a program it names elsewhere, or run a command at all.
	{"log.showSignature", "false"}, // runs gpg.program (or gpg.ssh.program) on every signed commit
	{"help.autoCorrect", "never"},  // would run a guessed command (an alias can be a shell command)
	{"gc.auto", "0"},               // an automatic gc runs the pre-auto-gc hook and more git
	{"maintenance.auto", "false"},
	// No network: a lazy fetch of a partial clone would run a transport (ext::, a remote helper,
	// ssh with core.sshCommand, credential helpers). GIT_ALLOW_PROTOCOL (empty) closes the protocols
	// not named here, remote helpers included.
	{"protocol.allow", "never"},
	{"protocol.file.allow", "never"},
	{"protocol.git.allow", "never"},
	{"protocol.ssh.allow", "never"},
	{"protocol.http.allow", "never"},
	{"protocol.https.allow", "never"},
	{"protocol.ext.allow", "never"},
	// Never a repository okf did not name, and no attributes from outside the checkout.
	{"safe.bareRepository", "explicit"},
	{"core.attributesFile", "/dev/null"},
	// Answers that do not depend on what the config asks for.
	{"log.follow", "false"},
	{"log.mailmap", "false"},
	{"color.ui", "false"},
	{"i18n.logOutputEncoding", "UTF-8"},
}

// GitOverrides returns the `-c` settings okf gives every git it runs, in order: every key of git's
// configuration (git-config(1), git 2.39) whose value names a program or makes git run one, each
// set to a value that runs nothing, plus no network, no implicit bare repository and answers that
// do not depend on config. Command-line settings are read after every config file (system, global,
// the repository's, and what include.path and includeIf pull in), so they win. The keys they cannot
// reach are named per driver, tool, remote or URL (filter.<driver>.*, diff.<driver>.textconv and
// .command, merge.<driver>.driver, difftool/mergetool.<tool>.cmd, remote.<name>.uploadpack,
// .receivepack and .vcs, credential.<url>.helper, submodule.<name>.update, trailer.<token>.cmd,
// alias.*) or are first-match (core.gitProxy): okf runs only commands that never apply them (see
// gitDriverFree), with no transport (protocols never allowed, GIT_PROXY_COMMAND empty). A test sets
// every key to a program in a real repository's config and checks git sees okf's value.
func GitOverrides() []GitSetting { return append([]GitSetting(nil), gitOverrides...) }

// gitDriverFree lists the only git commands okf runs, with the options that keep them from
// applying any attribute-keyed driver (filters, textconv, external diff), verifying a signature,
// paging or reading a mailmap: log with a --format and no diff output, rev-parse, ls-tree,
// cat-file --batch without --filters or --textconv, and ls-files (it reads the index, and runs no
// filter or hook). A test keeps every call okf makes in this list.
var gitDriverFree = map[string][]string{
	"log":       {"--no-show-signature", "--no-mailmap", "--no-textconv", "--no-ext-diff", "--no-color"},
	"rev-parse": nil,
	"ls-tree":   nil,
	"cat-file":  nil,
	"ls-files":  nil,
}

// gitEnv is the environment git runs in: okf's own, without any GIT_* variable (they could name
// another repository, object store, config, exec path, pager or trace file), and with no system or
// global config, no system attributes, discovery ceilinged at the top's parent, no prompt, no lazy
// fetch, no optional locks, no protocol and no proxy command.
func gitEnv(top string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(strings.ToUpper(k), "GIT_") || k == "LC_ALL" {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_SYSTEM="+os.DevNull,
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(top),
		"GIT_TERMINAL_PROMPT=0",
		"GIT_NO_LAZY_FETCH=1",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_ALLOW_PROTOCOL=",
		"GIT_PROXY_COMMAND=",
		"LC_ALL=C",
	)
}

// gitArgs is the command line of one git call: global options naming the repository, then the
// overrides, then the command with its driver-free options, then args.
func (r *GitRepo) gitArgs(command string, args []string) []string {
	a := []string{"--no-pager", "--literal-pathspecs", "--git-dir=" + r.gitDir, "--work-tree=" + r.top}
	for _, s := range gitOverrides {
		a = append(a, "-c", s.Key+"="+s.Value)
	}
	a = append(a, command)
	a = append(a, gitDriverFree[command]...)
	return append(a, args...)
}

// run runs one git command (one of gitDriverFree's) in the top with stdin, and returns its stdout,
// at most limit bytes: past that git is stopped and run fails. stderr becomes the error.
func (r *GitRepo) run(stdin io.Reader, limit int64, command string, args ...string) ([]byte, error) {
	if _, ok := gitDriverFree[command]; !ok {
		return nil, fmt.Errorf("git %s is not a command okf runs", command)
	}
	ctx, cancel := context.WithTimeout(context.Background(), GitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.exe, r.gitArgs(command, args)...)
	cmd.Dir = r.top
	cmd.Env = gitEnv(r.top)
	cmd.Stdin = stdin
	cmd.WaitDelay = time.Second
	out := &capped{limit: limit, stop: cancel}
	errb := &capped{limit: gitStderrLimit, truncate: true}
	cmd.Stdout, cmd.Stderr = out, errb
	err := cmd.Run()
	switch {
	case out.over:
		return nil, fmt.Errorf("git %s answered more than %s: stopped", command, bytesize.Format(limit))
	case ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("git %s took longer than %s: stopped", command, GitTimeout)
	case err != nil:
		if msg := strings.TrimSpace(errb.b.String()); msg != "" {
			return nil, errors.New(escape.Control(msg))
		}
		return nil, err
	}
	return out.b.Bytes(), nil
}

// capped is a writer that keeps at most limit bytes. Past it, it stops git (stop) and fails, or,
// with truncate, drops the rest.
type capped struct {
	b        bytes.Buffer
	limit    int64
	over     bool
	truncate bool
	stop     func()
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.limit - int64(c.b.Len()); int64(len(p)) > room {
		if c.truncate {
			if room > 0 {
				c.b.Write(p[:room])
			}
			return len(p), nil
		}
		c.over = true
		if c.stop != nil {
			c.stop()
		}
		return 0, errors.New("over the limit")
	}
	return c.b.Write(p)
}

// LastCommitDate returns the committer date (UTC) of the last commit that touched file, a
// slash-separated path relative to the opened folder: `git log -1 --format=%cI -- PATH`, the path
// taken literally (no pathspec magic). ok is false when no commit touched it.
func (r *GitRepo) LastCommitDate(file string) (t time.Time, ok bool, err error) {
	out, err := r.run(nil, gitLineLimit, "log", "-1", "--format=%cI", "--", r.prefix+file)
	if err != nil {
		return time.Time{}, false, err
	}
	s := strings.TrimSpace(string(out))
	if s == "" {
		return time.Time{}, false, nil
	}
	t, err = time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("git log: unexpected date %q", s)
	}
	return t.UTC(), true, nil
}

// Tracked reports whether file, a slash-separated path relative to the opened folder, is in the
// repository's index (committed, or staged to be): `git ls-files -z -- PATH`, the path taken
// literally. A state file okf keeps in a bundle for itself is never tracked; one that is came with
// the checkout, from whoever wrote it.
func (r *GitRepo) Tracked(file string) (bool, error) {
	out, err := r.run(nil, gitLineLimit, "ls-files", "-z", "--", r.prefix+file)
	if err != nil {
		return false, err
	}
	return len(out) > 0, nil
}

// Head names the commit checked out (abbreviated to 12 hex digits), "" when there is none yet
// (rev-parse --verify --quiet then fails with nothing on stderr).
func (r *GitRepo) Head() (string, error) {
	out, err := r.run(nil, gitLineLimit, "rev-parse", "--short=12", "--verify", "--quiet", "HEAD")
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(out) == 0 {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return hexLine(out)
}

// ErrUnknownRevision is returned (wrapped) when git cannot read a revision as a tree.
var ErrUnknownRevision = errors.New("git does not know the revision")

// Tree resolves ref (a revision the user named) to the object name of its tree.
func (r *GitRepo) Tree(ref string) (string, error) {
	out, err := r.run(nil, gitLineLimit, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{tree}")
	if err != nil {
		return "", fmt.Errorf("%w %q", ErrUnknownRevision, ref)
	}
	return hexLine(out)
}

func hexLine(out []byte) (string, error) {
	s := strings.TrimSpace(string(out))
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", fmt.Errorf("git: unexpected object name %q", s)
		}
	}
	return s, nil
}

// GitTreeEntry is one file of a tree listing (ls-tree -r -l).
type GitTreeEntry struct {
	Mode, Type, ID string
	Size           int64  // -1 when git gives none (a submodule)
	Path           string // relative to the opened folder, slash-separated
}

// ListTree lists every entry below the opened folder in tree (an object name from Tree):
// `git ls-tree -r -z -l --full-tree TREE -- PREFIX`, at most GitMaxListing bytes of answer.
func (r *GitRepo) ListTree(tree string) ([]GitTreeEntry, error) {
	args := []string{"-r", "-z", "-l", "--full-tree", tree}
	if r.prefix != "" {
		args = append(args, "--", r.prefix)
	}
	out, err := r.run(nil, GitMaxListing, "ls-tree", args...)
	if err != nil {
		return nil, err
	}
	var list []GitTreeEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, name, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 || !strings.HasPrefix(name, r.prefix) {
			continue
		}
		size, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			size = -1
		}
		list = append(list, GitTreeEntry{Mode: f[0], Type: f[1], ID: f[2], Size: size, Path: strings.TrimPrefix(name, r.prefix)})
	}
	return list, nil
}

// MaxGitBlobsTotal bounds what one ReadBlobs call reads from git, all blobs together: real
// bundles are a few MB of Markdown (5,678 files: 23 MB), and each blob is also bounded by the size
// limit per file.
const MaxGitBlobsTotal = 256 << 20

// ReadBlobs reads the blobs of entries (from ListTree) in one `git cat-file --batch` run, in
// order. The answer is bounded by the sizes the listing gave: a blob of another size is an error.
func (r *GitRepo) ReadBlobs(entries []GitTreeEntry) ([][]byte, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	var in strings.Builder
	limit, total := int64(0), int64(0)
	for _, e := range entries {
		if e.Size < 0 || e.Type != "blob" {
			return nil, fmt.Errorf("object %s: not a blob", e.ID)
		}
		in.WriteString(e.ID + "\n")
		limit += e.Size + gitBatchHeaderMax
		// Bound: one blob listed under many paths costs git nothing to store and okf its size
		// each time (a 1 MiB blob under 300 paths: 1 GB of memory).
		if total += e.Size; total > MaxGitBlobsTotal {
			return nil, fmt.Errorf("the files to read add up to more than %s (okf.MaxGitBlobsTotal): not read", bytesize.Format(MaxGitBlobsTotal))
		}
	}
	out, err := r.run(strings.NewReader(in.String()), limit, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(bytes.NewReader(out))
	blobs := make([][]byte, len(entries))
	for i, e := range entries {
		header, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("object %s: %v", e.ID, err)
		}
		f := strings.Fields(header)
		if len(f) != 3 || f[1] != "blob" {
			return nil, fmt.Errorf("object %s: unexpected reply %q", e.ID, strings.TrimSpace(header))
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil || size != e.Size {
			return nil, fmt.Errorf("object %s: size %q, the listing said %d", e.ID, f[2], e.Size)
		}
		blobs[i] = make([]byte, size)
		if _, err := io.ReadFull(br, blobs[i]); err != nil {
			return nil, fmt.Errorf("object %s: %v", e.ID, err)
		}
		if _, err := br.ReadByte(); err != nil { // the newline after each object
			return nil, fmt.Errorf("object %s: %v", e.ID, err)
		}
	}
	return blobs, nil
}
