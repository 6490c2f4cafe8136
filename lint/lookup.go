package lint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/internal/suggest"
)

// LookupFold is Lookup without regard to case: "okf101" and "Description-Missing" name rules too,
// as the command line accepts them.
func LookupFold(codeOrName string) *Rule {
	if r := Lookup(codeOrName); r != nil {
		return r
	}
	for _, r := range All() {
		if strings.EqualFold(r.Code, codeOrName) || strings.EqualFold(r.Name, codeOrName) {
			return r
		}
	}
	return nil
}

// UnknownRuleError says that a code or name matches no rule, with the closest rule when one is
// near (a "did you mean").
func UnknownRuleError(codeOrName string) error {
	for k, why := range retiredRules {
		if strings.EqualFold(k, codeOrName) {
			return errors.New(why)
		}
	}
	var names []string
	for _, r := range All() {
		names = append(names, r.Code, r.Name)
	}
	msg := fmt.Sprintf("unknown rule %q", codeOrName)
	if s := suggest.Closest(codeOrName, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", s)
	}
	return fmt.Errorf("%s; okf lint --list-rules lists them", msg)
}

// ruleJSON is one rule in `okf lint --list-rules -f json`; these fields are stable.
type ruleJSON struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Source   string `json:"source"`
	Decision string `json:"decision,omitempty"`
	Title    string `json:"title"`
	HelpURI  string `json:"help_uri"`
	// Fix says what okf lint --fix does for this rule's findings (absent: no fix).
	Fix string `json:"fix,omitempty"`
}

// WriteRules lists rules as a table (format "text" or "pretty") or a JSON array ("json").
func WriteRules(w io.Writer, rules []*Rule, format string) error {
	switch format {
	case "json":
		out := make([]ruleJSON, 0, len(rules))
		for _, r := range rules {
			out = append(out, ruleJSON{Code: r.Code, Name: r.Name, Severity: r.Severity.String(), Source: r.Source(),
				Decision: r.Decision, Title: r.Title, HelpURI: r.HelpURI(), Fix: FixDocs[r.Code]})
		}
		data, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(escape.JSONLog(data), '\n'))
		return err
	case "text", "pretty":
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CODE\tNAME\tSEVERITY\tFIX\tSOURCE\tTITLE")
		for _, r := range rules {
			fix := "-"
			if r.Fixable() {
				fix = "fix"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Code, r.Name, r.Severity, fix, r.Source(), r.Title)
		}
		return tw.Flush()
	}
	return fmt.Errorf("rules are listed as text or json, not %q", format)
}

// DocsURL is where the rules are documented: docs/rules.md, one anchor per rule.
const DocsURL = "https://github.com/okf-tools/okf/blob/main/docs/rules.md"

// AttestDocsURL documents the checks only okf attest makes (ATT codes).
const AttestDocsURL = "https://github.com/okf-tools/okf/blob/main/docs/attest.md#okf-attest-prove-a-number-was-produced-the-sanctioned-way"

// HelpURI is the address of the rule's documentation (SARIF's helpUri): its anchor in
// docs/rules.md, or for okf attest's own ATT codes docs/attest.md.
func (r *Rule) HelpURI() string {
	if !strings.HasPrefix(r.Code, "OKF") {
		return AttestDocsURL
	}
	return DocsURL + "#" + strings.ToLower(r.Code)
}

// DecisionsURL is the page of okf's readings of the spec (D1…), which rules and messages cite.
const DecisionsURL = "https://github.com/okf-tools/okf/blob/main/docs/decisions.md"

// WriteRulesDoc writes docs/rules.md: every rule with an anchor (#okf101) that SARIF's helpUri
// and `--list-rules -f json` point at. A test keeps the file in the repository up to date.
func WriteRulesDoc(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# okf lint rules\n\n")
	b.WriteString("Generated from the rule registry (`go test ./lint -run TestRulesDoc` with `OKF_UPDATE_DOCS=1`\n" +
		"rewrites it); `okf lint --explain CODE` prints the same text. Severities follow decision D1 of\n" +
		"[our readings of the spec](decisions.md); every rule can be set to another severity or turned off\n" +
		"in `.okf.yaml` (see [its configuration](lint.md#configuration-okfyaml)).\n\n")
	b.WriteString("| code | name | severity | source | title |\n|---|---|---|---|---|\n")
	for _, r := range All() {
		fmt.Fprintf(&b, "| [%s](#%s) | `%s` | %s | %s | %s |\n", r.Code, strings.ToLower(r.Code), r.Name, r.Severity, r.Source(), r.Title)
	}
	for _, r := range All() {
		fmt.Fprintf(&b, "\n<a id=\"%s\"></a>\n## %s %s\n\n", strings.ToLower(r.Code), r.Code, r.Name)
		fmt.Fprintf(&b, "%s. Default severity **%s**; source: %s", upperFirst(r.Title), r.Severity, r.Source())
		if r.Decision != "" {
			fmt.Fprintf(&b, "; decision [%s](decisions.md)", r.Decision)
		}
		b.WriteString(".\n\n")
		b.WriteString(strings.TrimSpace(r.Doc))
		b.WriteString("\n")
		if doc := FixDocs[r.Code]; doc != "" {
			fmt.Fprintf(&b, "\nFix (`okf lint --fix`): %s.\n", doc)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
