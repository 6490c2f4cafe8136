package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestDocsCommands checks every okf command the documentation quotes, in a code block or a code
// span (README.md, the pages next to it, docs/): its command and subcommand exist, and every flag it passes is a
// flag of that command, as the CLI defines them (newApp). A command shown with its usage error
// ("$ okf lint --formt json" followed by "okf: unknown flag") must fail the same check; the
// okf commands of action.yml and .pre-commit-hooks.yaml are checked too. A flag
// renamed or removed breaks the pages that show it here, not in a reader's terminal.
func TestDocsCommands(t *testing.T) {
	app := newApp(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }})
	var files []string
	for _, pattern := range []string{"../../*.md", "../../docs/*.md", "../../docs/*/*.md"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	checked := 0
	for _, file := range files {
		if filepath.Base(file) == "CHANGELOG.md" {
			continue // history: it names flags as they were
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range quotedCommands(string(data)) {
			checked++
			err := checkInvocation(app, q.args)
			switch {
			case q.wantError && err == nil:
				t.Errorf("%s:%d: %q is shown failing, but okf takes it", file, q.line, q.text)
			case !q.wantError && err != nil:
				t.Errorf("%s:%d: %q: %v", file, q.line, q.text, err)
			}
		}
	}
	// The adoption files run okf too: the Action's scripts and the pre-commit hook's entry.
	for _, file := range []string{"../../action.yml", "../../.pre-commit-hooks.yaml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		qs := quotedCommands("```sh\n" + string(data) + "\n```\n")
		if len(qs) == 0 {
			t.Errorf("%s: no okf command found", file)
		}
		for _, q := range qs {
			checked++
			if err := checkInvocation(app, q.args); err != nil {
				t.Errorf("%s:%d: %q: %v", file, q.line-1, q.text, err)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d okf commands found in the documentation: the parser is out of date", checked)
	}
}

// quoted is an okf command found in a code block: its arguments after "okf".
type quoted struct {
	line      int
	text      string
	args      []string
	wantError bool // shown with okf's usage error on the next line
}

var fence = regexp.MustCompile("^\\s*(```+|~~~+)\\s*([A-Za-z0-9_-]*)")

// quotedCommands finds the okf commands of the code blocks of a Markdown page. In a block of output
// (text, console) only lines starting with a "$ " prompt are commands; in a shell or YAML block
// every line is, after its comment is cut. A line is split at &&, ||, |, ; and $( or <( into
// commands, and a command counts when its first word is okf (or a path ending in /okf), after
// any VAR=value words and YAML's "- run:" or "entry:", or when it is docker run's image okf.
func quotedCommands(md string) []quoted {
	var out []quoted
	lines := strings.Split(md, "\n")
	prose := make([]string, len(lines)) // the lines outside code blocks, for the code spans
	inBlock, output := false, false
	var marker string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := fence.FindStringSubmatch(line); m != nil {
			switch {
			case !inBlock:
				inBlock, marker = true, m[1][:3]
				output = m[2] == "text" || m[2] == "console" || m[2] == "json" || m[2] == "diff"
			case strings.HasPrefix(m[1], marker) && m[2] == "":
				inBlock = false
			}
			continue
		}
		if !inBlock {
			prose[i] = line
			continue
		}
		text := strings.TrimSpace(line)
		start := i
		for strings.HasSuffix(text, "\\") && i+1 < len(lines) { // a command continued on the next line
			i++
			text = strings.TrimSuffix(text, "\\") + " " + strings.TrimSpace(lines[i])
		}
		prompt := strings.HasPrefix(text, "$ ")
		if output && !prompt {
			continue
		}
		text = strings.TrimPrefix(text, "$ ")
		if j := strings.Index(text, " #"); j >= 0 {
			text = text[:j]
		}
		if strings.HasPrefix(text, "#") {
			continue
		}
		wantError := prompt && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "okf: unknown")
		for _, seg := range regexp.MustCompile(`&&|\|\||[|;]|\$\(|<\(|\)`).Split(text, -1) {
			if args, ok := okfArgs(shellWords(seg)); ok {
				out = append(out, quoted{line: start + 1, text: strings.TrimSpace(seg), args: args, wantError: wantError})
			}
		}
	}
	// Code spans in prose (`okf lint --fail-on warning`), which may run over a line break. A span
	// whose second word ends in a colon quotes a message ("okf trust: …"), not a command.
	text := strings.Join(prose, "\n")
	for _, m := range codeSpan.FindAllStringSubmatchIndex(text, -1) {
		span := text[m[2]:m[3]]
		words := shellWords(span)
		if len(words) < 2 || strings.HasSuffix(words[1], ":") || strings.HasPrefix(words[1], "__") {
			continue
		}
		out = append(out, quoted{line: strings.Count(text[:m[0]], "\n") + 1, text: span, args: words[1:]})
	}
	return out
}

var codeSpan = regexp.MustCompile("`(okf [^`]+)`")

// okfArgs returns the arguments of an okf command line's words, and whether it is one.
func okfArgs(words []string) ([]string, bool) {
	for len(words) > 0 && (words[0] == "-" || words[0] == "run:" || words[0] == "entry:" || strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-")) {
		words = words[1:]
	}
	if len(words) == 0 {
		return nil, false
	}
	if words[0] == "docker" && len(words) > 1 && words[1] == "run" {
		if i := slices.Index(words, "okf"); i > 0 {
			return words[i+1:], true
		}
		return nil, false
	}
	if words[0] == "okf" || strings.HasSuffix(words[0], "/okf") && !strings.Contains(words[0], "github.com") {
		return words[1:], true
	}
	return nil, false
}

// shellWords splits a command into words as a shell does for the simple cases documentation shows:
// spaces separate, and single or double quotes keep spaces inside a word.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quote, inWord := false, byte(0), false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == quote:
			in = false
		case in:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			in, quote, inWord = true, c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// placeholder is a word the documentation writes for "any command" or "and so on": COMMAND, ….
var placeholder = regexp.MustCompile(`^(\[?[A-Z][A-Z_]*\]?|…|\.\.\.)$`)

// checkInvocation checks okf's arguments against the app: the global flags before the command, the
// command and subcommand words, and each flag after them (up to --). A word "verify|run" (or
// "verify/run") names several subcommands, each of which must exist and take the flags after it;
// a placeholder (COMMAND, …) where a command belongs ends the check there.
func checkInvocation(app *cli.App, args []string) error {
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		// --version is the app's own, which urfave/cli adds since Version is set.
		if name := flagName(args[i]); name != "version" && name != "v" && !hasFlag(app.Flags, name) {
			return fmt.Errorf("okf takes no global flag %s", args[i])
		}
	}
	if i == len(args) || placeholder.MatchString(args[i]) {
		return nil
	}
	if args[i] == "help" { // okf help attest check: the words of a command
		return checkInvocation(app, args[i+1:])
	}
	cmds, path, err := commandWord(app.Commands, "okf", args[i])
	if err != nil {
		return err
	}
	for i++; len(cmds[0].Subcommands) > 0 && i < len(args) && !strings.HasPrefix(args[i], "-"); i++ {
		if args[i] == "help" { // okf attest help check
			return checkInvocation(app, append(strings.Fields(path)[1:], args[i+1:]...))
		}
		if placeholder.MatchString(args[i]) {
			return nil
		}
		if cmds, path, err = commandWord(cmds[0].Subcommands, path, args[i]); err != nil {
			return err
		}
	}
	for ; i < len(args); i++ {
		a := strings.TrimPrefix(args[i], "[")
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' || a[1] >= '0' && a[1] <= '9' {
			continue // an argument, a value, -, or a negative number
		}
		for _, c := range cmds {
			if name := flagName(a); !hasFlag(c.Flags, name) {
				if len(cmds) > 1 {
					return fmt.Errorf("%s %s has no flag %s", path, c.Name, a)
				}
				return fmt.Errorf("%s has no flag %s", path, a)
			}
		}
	}
	return nil
}

// commandWord returns the commands a command word names among cmds: one, or each of "a|b".
func commandWord(cmds []*cli.Command, path, word string) ([]*cli.Command, string, error) {
	var out []*cli.Command
	for _, w := range strings.FieldsFunc(word, func(r rune) bool { return r == '|' || r == '/' }) {
		c := findCommand(cmds, w)
		if c == nil {
			return nil, "", fmt.Errorf("%s has no command %q", path, w)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, "", fmt.Errorf("%s has no command %q", path, word)
	}
	if len(out) == 1 {
		return out, path + " " + out[0].Name, nil
	}
	return out, path, nil
}

func flagName(arg string) string {
	name := strings.TrimLeft(arg, "-")
	name, _, _ = strings.Cut(name, "=")
	return strings.TrimRight(name, "]")
}

func hasFlag(flags []cli.Flag, name string) bool {
	if name == "help" || name == "h" {
		return true
	}
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return true
		}
	}
	return false
}

// otherTools are flags the documentation names that belong to other programs, not to okf.
var otherTools = map[string]string{
	"user": "docker run", "cli": "the MCP Inspector", "protocol-era": "the MCP Inspector", "spec-version": "the MCP conformance suite",
	"textconv": "git", "no-pager": "git", "literal-pathspecs": "git", "git-dir": "git", "filters": "git", "end-of-options": "git",
}

var flagSpan = regexp.MustCompile("`(--[a-z][a-z0-9-]*)[ =`\\[]")

// TestDocsFlagSpans checks every flag the documentation names on its own in a code span
// (`--fail-on warning`, `--max-file-size`): it must be a flag of some okf command, or one of
// another program's flags listed in otherTools. TestDocsCommands checks the flags of whole commands.
func TestDocsFlagSpans(t *testing.T) {
	app := newApp(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }})
	okfFlags := map[string]bool{"help": true, "version": true}
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			for _, f := range c.Flags {
				for _, n := range f.Names() {
					okfFlags[n] = true
				}
			}
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
	var files []string
	for _, pattern := range []string{"../../*.md", "../../docs/*.md"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	n := 0
	for _, file := range files {
		if filepath.Base(file) == "CHANGELOG.md" {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range flagSpan.FindAllStringSubmatchIndex(string(data), -1) {
			name := string(data[m[2]+2 : m[3]])
			n++
			if !okfFlags[name] && otherTools[name] == "" {
				t.Errorf("%s:%d: --%s is no flag of any okf command", file, bytes.Count(data[:m[0]], []byte("\n"))+1, name)
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d flags found in code spans: the pattern is out of date", n)
	}
}
