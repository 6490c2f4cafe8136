package adopt

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const root = "../.."

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type action struct {
	Name   string
	Inputs map[string]struct {
		Description string
		Required    bool
		Default     *string
	}
	Runs struct {
		Using string
		Steps []struct {
			Name string
			If   string
			Uses string
			Run  string
			Env  map[string]string
			With map[string]string
		}
	}
}

var inputRef = regexp.MustCompile(`inputs\.([A-Za-z0-9_-]+)`)

// TestAction checks action.yml: every documented input is used by a step and every input a step
// uses is documented, inputs reach scripts only through env (no ${{ }} pasted into a run script,
// where an input or a crafted value could inject shell), and each okf flag it passes exists.
func TestAction(t *testing.T) {
	var a action
	if err := yaml.Unmarshal([]byte(read(t, "action.yml")), &a); err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", a.Runs.Using)
	}
	used := map[string]bool{}
	for _, s := range a.Runs.Steps {
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q pastes an expression into its script; pass it through env", s.Name)
		}
		for _, v := range s.Env {
			for _, m := range inputRef.FindAllStringSubmatch(v, -1) {
				used[m[1]] = true
			}
		}
		for _, m := range inputRef.FindAllStringSubmatch(s.If, -1) {
			used[m[1]] = true
		}
		for _, v := range s.With {
			for _, m := range inputRef.FindAllStringSubmatch(v, -1) {
				used[m[1]] = true
			}
		}
	}
	var declared []string
	for name, in := range a.Inputs {
		declared = append(declared, name)
		if strings.TrimSpace(in.Description) == "" {
			t.Errorf("input %q has no description", name)
		}
		if !used[name] {
			t.Errorf("input %q is documented but no step uses it", name)
		}
	}
	for name := range used {
		if _, ok := a.Inputs[name]; !ok {
			t.Errorf("a step uses inputs.%s, which is not declared", name)
		}
	}
	sort.Strings(declared)
	want := []string{"config", "fail-on", "path", "sarif", "summary", "version"}
	if !slices.Equal(declared, want) {
		t.Errorf("inputs %v, want %v", declared, want)
	}
	all := read(t, "action.yml")
	for _, flag := range []string{"okf lint", "-f github", "--also-write \"sarif:", "--fail-on", "--config", "okf trust -f markdown", "GITHUB_STEP_SUMMARY"} {
		if !strings.Contains(all, flag) {
			t.Errorf("action.yml does not use %q", flag)
		}
	}
}

// TestActionGoCache checks the action keeps Go's build and module caches between runs. setup-go's own
// cache keys on go.sum files inside the caller's workspace only, and the action's go.sum is not in it
// (setup-go's cache-restore.ts hashes with @actions/glob's hashFiles, which skips files outside
// GITHUB_WORKSPACE): so setup-go's cache is off and an actions/cache step, keyed on a hash of the
// action's go.sum and the Go version, holds GOCACHE and GOMODCACHE.
func TestActionGoCache(t *testing.T) {
	var a action
	if err := yaml.Unmarshal([]byte(read(t, "action.yml")), &a); err != nil {
		t.Fatal(err)
	}
	var key, cached string
	for _, s := range a.Runs.Steps {
		switch {
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			if s.With["cache"] == "true" {
				t.Error("setup-go's cache cannot key on the action's go.sum (outside the workspace): it only warns and caches nothing")
			}
		case strings.HasPrefix(s.Uses, "actions/cache@"):
			cached = s.With["path"] + " " + s.With["key"]
		case strings.Contains(s.Run, "go env GOCACHE"):
			key = s.Run
		case strings.Contains(s.Run, "go build") || strings.Contains(s.Run, "go install"):
			if cached == "" {
				t.Errorf("step %q builds okf before any actions/cache step restores Go's caches", s.Name)
			}
		}
	}
	for _, want := range []string{"go env GOCACHE", "go env GOMODCACHE", "go.sum", "GOVERSION"} {
		if !strings.Contains(key, want) {
			t.Errorf("the cache key step does not use %q", want)
		}
	}
	if !strings.Contains(cached, "steps.go-cache.outputs.build") || !strings.Contains(cached, "steps.go-cache.outputs.mod") {
		t.Errorf("the actions/cache step does not hold GOCACHE and GOMODCACHE: %q", cached)
	}
}

// refPattern finds the okf versions that adoption snippets name: the action's ref, go install's
// version, pre-commit's rev and the Dockerfile's image tag are not checked here.
var refPattern = regexp.MustCompile(`(?:okf-tools/okf@|github\.com/okf-tools/okf/cmd/okf@|\brev: )([A-Za-z0-9._/-]+)`)

// TestNamedVersionsExist checks every okf version a snippet names, in the README, docs/, the
// action and the hook, is one that resolves: main, a commit (hex), latest, or a tag of this
// repository. "@v1", "rev: v1.0.0" and "v0.3.0" named tags that did not exist.
func TestNamedVersionsExist(t *testing.T) {
	tags := map[string]bool{}
	if out, err := exec.Command("git", "-C", root, "tag", "--list").Output(); err == nil {
		for _, tag := range strings.Fields(string(out)) {
			tags[tag] = true
		}
	}
	files := []string{"README.md", "CONTRIBUTING.md", "action.yml", ".pre-commit-hooks.yaml", "Dockerfile"}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, d := range docs {
		files = append(files, filepath.Join("docs", filepath.Base(d)))
	}
	hex := regexp.MustCompile(`^[0-9a-f]{7,40}$`)
	n := 0
	for _, f := range files {
		for _, m := range refPattern.FindAllStringSubmatch(read(t, f), -1) {
			ref := strings.TrimRight(m[1], ".")
			n++
			if ref != "main" && ref != "latest" && !hex.MatchString(ref) && !tags[ref] {
				t.Errorf("%s names okf version %q, which is no tag of this repository (tags: %d), nor main or a commit", f, ref, len(tags))
			}
		}
	}
	if n == 0 {
		t.Error("no snippet names an okf version: the pattern is out of date")
	}
}

// TestPreCommitHook checks the hook pre-commit users reference: okf lint on staged .md files (those in
// no bundle, such as a README.md, left out), built
// from this module (language: golang), file names passed.
func TestPreCommitHook(t *testing.T) {
	var hooks []map[string]any
	if err := yaml.Unmarshal([]byte(read(t, ".pre-commit-hooks.yaml")), &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 1 {
		t.Fatalf("%d hooks, want 1", len(hooks))
	}
	h := hooks[0]
	for k, want := range map[string]any{"id": "okf-lint", "entry": "okf lint --skip-unbundled", "language": "golang", "files": `\.md$`, "pass_filenames": true} {
		if h[k] != want {
			t.Errorf("%s = %v, want %v", k, h[k], want)
		}
	}
	if !regexp.MustCompile(h["files"].(string)).MatchString("docs/tables/orders.md") {
		t.Error("files pattern does not match a concept path")
	}
}

// TestReleaseConfig checks .goreleaser.yaml builds the three systems on both architectures with
// checksums, and that the version variables it sets exist in cmd/okf (-X silently ignores a
// missing one).
func TestReleaseConfig(t *testing.T) {
	var cfg struct {
		Version int
		Builds  []struct {
			Main    string
			Goos    []string
			Goarch  []string
			Env     []string
			Flags   []string
			Tags    []string
			Ldflags []string
		}
		Checksum map[string]string
	}
	if err := yaml.Unmarshal([]byte(read(t, ".goreleaser.yaml")), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Version != 2 || len(cfg.Builds) != 1 {
		t.Fatalf("version %d, %d builds", cfg.Version, len(cfg.Builds))
	}
	b := cfg.Builds[0]
	if b.Main != "./cmd/okf" || !slices.Equal(b.Goos, []string{"linux", "darwin", "windows"}) || !slices.Equal(b.Goarch, []string{"amd64", "arm64"}) {
		t.Errorf("build %+v", b)
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Error("release binaries must be static (CGO_ENABLED=0)")
	}
	// urfave_cli_no_docs drops urfave/cli's doc generators, which okf does not call, and their
	// blackfriday init from every process.
	if !slices.Contains(b.Flags, "-trimpath") || !slices.Equal(b.Tags, []string{"urfave_cli_no_docs"}) || !strings.HasPrefix(strings.Join(b.Ldflags, " "), "-s -w ") {
		t.Errorf("release build flags %q, tags %q, ldflags %q: want -trimpath, urfave_cli_no_docs, -s -w", b.Flags, b.Tags, b.Ldflags)
	}
	if cfg.Checksum["name_template"] == "" {
		t.Error("no checksum file")
	}
	decl := regexp.MustCompile(`(?m)^var ([\w, ]+) = `).FindAllStringSubmatch(read(t, "cmd/okf/app.go"), -1)
	declared := map[string]bool{}
	for _, d := range decl {
		for _, n := range strings.Split(d[1], ",") {
			declared[strings.TrimSpace(n)] = true
		}
	}
	for _, m := range regexp.MustCompile(`-X main\.(\w+)=`).FindAllStringSubmatch(strings.Join(b.Ldflags, " "), -1) {
		if !declared[m[1]] {
			t.Errorf("ldflags set main.%s, which cmd/okf/app.go does not declare", m[1])
		}
	}
}

// TestDockerfile checks the image runs a static binary, built as a release is, as a non-root user.
func TestDockerfile(t *testing.T) {
	d := read(t, "Dockerfile")
	for _, want := range []string{"CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -ldflags \"-s -w\" ", "./cmd/okf", "USER nonroot", `ENTRYPOINT ["/usr/local/bin/okf"]`} {
		if !strings.Contains(d, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	if regexp.MustCompile(`(?m)^USER\s+(root|0)\b`).MatchString(d) {
		t.Error("the image runs as root")
	}
}

// TestREADMESnippets checks the README shows each way in, with the names the files really use.
func TestREADMESnippets(t *testing.T) {
	r := read(t, "README.md")
	for _, want := range []string{
		"uses: okf-tools/okf@", "github/codeql-action/upload-sarif", "sarif:",
		"id: okf-lint", "docker run", "go install github.com/okf-tools/okf/cmd/okf@", "Apache-2.0",
	} {
		if !strings.Contains(r, want) {
			t.Errorf("README lacks %q", want)
		}
	}
	if !strings.Contains(read(t, "LICENSE"), "Apache License\n                           Version 2.0, January 2004") {
		t.Error("LICENSE is not the Apache License 2.0")
	}
}

// TestDecisionsShipped checks docs/decisions.md has every decision of the project's own list
// (../shared/docs/decisions.md, when present) and no id it lacks.
func TestDecisionsShipped(t *testing.T) {
	id := regexp.MustCompile(`(?m)^- \*\*(D\d+)\.`)
	ours := id.FindAllStringSubmatch(read(t, "docs/decisions.md"), -1)
	src, err := os.ReadFile(filepath.Join(root, "../shared/docs/decisions.md"))
	if err != nil {
		t.Skip("../shared/docs/decisions.md is absent: nothing to compare with")
	}
	theirs := id.FindAllStringSubmatch(string(src), -1)
	if len(ours) != len(theirs) {
		t.Fatalf("docs/decisions.md has %d decisions, the project's list %d", len(ours), len(theirs))
	}
	for i := range ours {
		if ours[i][1] != theirs[i][1] {
			t.Errorf("decision %d is %s, want %s", i, ours[i][1], theirs[i][1])
		}
	}
}

// TestActionSARIFRefused runs the action's lint step, with okf built from this module, in a
// workspace where the pull request committed the sarif: input's file as a link leading out of the
// checkout. okf refuses to write it (exit 3), and the step must fail with that code rather than
// swallow it and upload a stale or missing report; the file outside stays as it was. With a plain
// sarif path, findings (exit 1) still let the step pass, and one okf lint run prints the
// annotations and writes the SARIF file (the bundle is read once; the two cannot disagree).
func TestActionSARIFRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds okf")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	var a action
	if err := yaml.Unmarshal([]byte(read(t, "action.yml")), &a); err != nil {
		t.Fatal(err)
	}
	var script string
	for _, s := range a.Runs.Steps {
		if s.Name == "Lint" {
			script = s.Run
		}
	}
	if script == "" {
		t.Fatal("no Lint step in action.yml")
	}
	top := t.TempDir()
	bin := filepath.Join(top, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "okf"), "./cmd/okf")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ws := filepath.Join(top, "ws")
	for _, d := range []string{".git", "docs"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "docs", "note.md"), []byte("# no frontmatter\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// okf on the step's PATH is a wrapper that logs each run, then runs okf.
	wrapped := filepath.Join(top, "wrapped")
	runs := filepath.Join(top, "runs.log")
	if err := os.MkdirAll(wrapped, 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := "#!" + bash + "\necho \"$1\" >> '" + runs + "'\nexec '" + filepath.Join(bin, "okf") + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(wrapped, "okf"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(top, "secret")
	if err := os.WriteFile(secret, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../secret", filepath.Join(ws, "results.sarif")); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	var stdout strings.Builder
	step := func(sarif string) (int, string) {
		out := filepath.Join(top, "github_output")
		os.Remove(out)
		os.Remove(runs)
		stdout.Reset()
		cmd := exec.Command(bash, "-c", script)
		cmd.Dir = ws
		cmd.Stdout = &stdout
		cmd.Env = append(os.Environ(), "PATH="+wrapped+string(os.PathListSeparator)+os.Getenv("PATH"),
			"OKF_PATH=docs", "OKF_FAIL_ON=error", "OKF_CONFIG=", "OKF_SARIF="+sarif, "GITHUB_OUTPUT="+out)
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(out)
		return code, string(b)
	}
	if code, out := step("results.sarif"); code != 3 || !strings.Contains(out, "exit-code=3") {
		t.Errorf("a refused sarif path: step exit %d, output %q; want 3 and exit-code=3", code, out)
	}
	if b, _ := os.ReadFile(secret); string(b) != "keep" {
		t.Errorf("the file the link leads to holds %q", b)
	}
	if code, out := step("plain.sarif"); code != 0 || !strings.Contains(out, "exit-code=1") {
		t.Errorf("a plain sarif path: step exit %d, output %q; want 0 and exit-code=1", code, out)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "plain.sarif")); err != nil || !strings.Contains(string(b), "OKF001") {
		t.Errorf("plain.sarif: %v %.80q", err, b)
	}
	if !strings.Contains(stdout.String(), "::error file=docs/note.md,") {
		t.Errorf("the step printed no annotation for docs/note.md:\n%s", stdout.String())
	}
	if b, _ := os.ReadFile(runs); string(b) != "lint\n" {
		t.Errorf("the step ran okf %q, want one okf lint", b)
	}
}

// TestCIRunsTheREADMETestCommand: the README gives the test command a contributor runs, and CI
// (.ci/run) runs that same command (with -json, for its summary), so a green CI means the README's
// command passes on a clean clone.
func TestCIRunsTheREADMETestCommand(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "## Tests")
	if !ok {
		t.Fatal("README.md has no Tests section")
	}
	_, block, ok = strings.Cut(block, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	cmd := strings.TrimSpace(block)
	if !ok || !strings.HasPrefix(cmd, "go test ") {
		t.Fatalf("README.md's Tests section shows no go test command: %q", cmd)
	}
	pkgs := strings.TrimPrefix(cmd, "go test ")
	var runs bool
	for _, line := range strings.Split(string(ci), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "go test -json "+pkgs) || strings.HasPrefix(line, cmd) {
			runs = true
		}
	}
	if !runs {
		t.Errorf(".ci/run does not run the README's test command %q", cmd)
	}
}
