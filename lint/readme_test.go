package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	rulesBegin = "<!-- BEGIN rules -->"
	rulesEnd   = "<!-- END rules -->"
)

// rulesSection renders the README's rule table from the registry, so the docs cannot drift from the
// code.
func rulesSection(rules []*Rule) string {
	var b strings.Builder
	b.WriteString("# Lint rules\n\n")
	b.WriteString("Every rule `okf lint` runs, with its stable code (never reused), default severity and where it comes from.\n")
	b.WriteString("Severities follow decision D1: `error` only for §11 non-conformance; a MUST, REQUIRED or SHOULD of an\n")
	b.WriteString("optional family (§5–§10) is a `warning`; conventions and hygiene are `info`. Codes are grouped by family:\n")
	b.WriteString("OKF0xx conformance, 1xx recommended fields and `okf_version`, 2xx timestamps, 3xx trust, 4xx lifecycle,\n")
	b.WriteString("5xx provenance, 6xx links and paths, 7xx attested computations, 8xx index and log files, 9xx the engine.\n")
	b.WriteString("`okf lint --explain CODE` prints a rule's full explanation with a bad and a good example.\n\n")
	b.WriteString("Readings the rules make where the spec leaves room (each rule's doc says more):\n\n")
	b.WriteString("- `team:<id>` is not one of §7's three actor forms. It is accepted and counted as non-human (D12): `team-actor`\n")
	b.WriteString("  notes it (info) in `generated.by` and `verified[].by`; as a `sources[].author` it is not reported, since §5.1's\n")
	b.WriteString("  own example uses it. Anything else that follows no form is `actor-unconventional` (warning).\n")
	b.WriteString("- A link is resolved from its file's folder, as Markdown renderers do (D15); one that only works from the bundle\n")
	b.WriteString("  root is a broken link whose message says to write `/path`. A path-valued field falls back to the root (D14),\n")
	b.WriteString("  and `root-relative-path` suggests the `/path` form.\n")
	b.WriteString("- The `# Computation` block may be fenced or indented (§10.2's own example is indented); blocks in subsections of\n")
	b.WriteString("  `# Computation` count too. Placeholders are read for SQL runtimes (`@name`, outside comments and strings) and dbt\n")
	b.WriteString("  (`var('name')`); other runtimes are not checked for placeholders.\n")
	b.WriteString("- A footnote label that matches no `sources[].id` is reported once per label and file, at its definition, and only\n")
	b.WriteString("  in a concept that has `sources`: without them footnotes are ordinary Markdown (D16). A reference with no\n")
	b.WriteString("  definition in its file is `footnote-undefined` (info) in any concept.\n")
	b.WriteString("- A concept counts as listed in its folder's index.md when the index links to it anywhere (entry, table, heading, prose).\n")
	b.WriteString("  An index.md with no heading or no link at all is `index-without-sections` (warning, D7).\n")
	b.WriteString("- A concept is an `orphan` when no index.md links to it and no other concept does, in its body or in a\n")
	b.WriteString("  path-valued field (`computation`, `executor.resource`, …); links from log.md do not count. A bundle with\n")
	b.WriteString("  no index.md at all is not checked: consumers synthesize its indexes (§8).\n")
	b.WriteString("- Heading anchors (`link-anchor-missing`) are GitHub's: the heading text lowercased, punctuation dropped except\n")
	b.WriteString("  `-` and `_`, each space a `-`, repeats suffixed `-1`, `-2`; a fragment is compared without case after\n")
	b.WriteString("  %-decoding. Anchors written as raw HTML are not seen, and links into log.md are not checked.\n\n")
	b.WriteString("This table is generated from the registry in `lint/`; after changing a rule run\n")
	b.WriteString("`OKF_UPDATE_README=1 go test ./lint -run TestREADMERules`.\n\n")
	b.WriteString("| code | name | severity | source | title |\n|---|---|---|---|---|\n")
	for _, r := range rules {
		src := r.Source()
		if r.Decision != "" {
			src += ", " + r.Decision
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", r.Code, r.Name, r.Severity, src, strings.ReplaceAll(r.Title, "|", `\|`))
	}
	return b.String()
}

// TestREADMERules checks that the README's rule table (between the rules markers) is the one the
// registry generates. OKF_UPDATE_README=1 rewrites it.
func TestREADMERules(t *testing.T) {
	path := filepath.Join("..", "docs", "lint.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, rulesBegin)
	end := strings.Index(text, rulesEnd)
	if start < 0 || end < start {
		t.Fatalf("README.md has no %s … %s markers", rulesBegin, rulesEnd)
	}
	want := rulesBegin + "\n" + rulesSection(All()) + rulesEnd
	got := text[start : end+len(rulesEnd)]
	if got == want {
		return
	}
	if os.Getenv("OKF_UPDATE_README") == "1" {
		updated := text[:start] + want + text[end+len(rulesEnd):]
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote the rule table in %s", path)
		return
	}
	t.Errorf("README.md rule table is out of date with the registry: run OKF_UPDATE_README=1 go test ./lint -run TestREADMERules")
}
