package lint

import "github.com/okf-tools/okf/okf"

// loaderRule surfaces the diagnostics the loader found under code: conformance (§11) is judged
// while parsing, where the positions are, and lint only reports it.
func loaderRule(code string) func(p *Pass) {
	return func(p *Pass) {
		for _, d := range p.Bundle.Diagnostics {
			if d.Code == code {
				p.Report(d)
			}
		}
	}
}

// The conformance rules (D1: errors), one per loader code.
var (
	FrontmatterMissing = &Rule{Code: okf.CodeNoFrontmatter, Name: "frontmatter-missing", Severity: okf.Error, Spec: "§11", Decision: "D2", Scope: ScopeBundle,
		Title: "concept without frontmatter",
		Doc: "Every non-reserved .md file is a concept and must begin with a YAML frontmatter block (§4, §11).\n\n" +
			"Bad:\n\n    # Orders\n    One row per order.\n\nGood:\n\n    ---\n    type: BigQuery Table\n    ---\n    # Orders\n\n" +
			"A Markdown file that is not a concept (a README) can be listed in .okfignore (D5).",
		Check: loaderRule(okf.CodeNoFrontmatter)}
	FrontmatterUnterminated = &Rule{Code: okf.CodeUnterminated, Name: "frontmatter-unterminated", Severity: okf.Error, Spec: "§11", Decision: "D2", Scope: ScopeBundle,
		Title: "frontmatter block never closed",
		Doc: "The frontmatter ends at the next line that is `---` once surrounding spaces and tabs are stripped (D2). A `----` line does not close it.\n\n" +
			"Bad:\n\n    ---\n    type: Metric\n    ----\n\nGood:\n\n    ---\n    type: Metric\n    ---",
		Check: loaderRule(okf.CodeUnterminated)}
	FrontmatterInvalid = &Rule{Code: okf.CodeInvalidYAML, Name: "frontmatter-invalid-yaml", Severity: okf.Error, Spec: "§11", Decision: "D3", Scope: ScopeBundle,
		Title: "frontmatter is not valid YAML",
		Doc: "The frontmatter must be a YAML 1.2 mapping that gopkg.in/yaml.v3 reads; duplicate keys are refused (D3).\n\n" +
			"Bad:\n\n    description: ratio: revenue over cost\n\nGood:\n\n    description: \"ratio: revenue over cost\"",
		Check: loaderRule(okf.CodeInvalidYAML)}
	TypeMissing = &Rule{Code: okf.CodeNoType, Name: "type-missing", Severity: okf.Error, Spec: "§11", Decision: "D4", Scope: ScopeBundle,
		Title: "frontmatter without type",
		Doc:   "`type` is the one required key (§4.1).\n\nBad:\n\n    ---\n    title: Orders\n    ---\n\nGood:\n\n    ---\n    type: BigQuery Table\n    title: Orders\n    ---",
		Check: loaderRule(okf.CodeNoType)}
	TypeInvalid = &Rule{Code: okf.CodeBadType, Name: "type-invalid", Severity: okf.Error, Spec: "§11", Decision: "D4", Scope: ScopeBundle,
		Title: "type is not a non-empty string",
		Doc:   "`type` must be a non-empty string scalar; a number, list, map or blank is an error (D4).\n\nBad:\n\n    type: 42\n\nGood:\n\n    type: Metric",
		Check: loaderRule(okf.CodeBadType)}
	NotUTF8 = &Rule{Code: okf.CodeNotUTF8, Name: "not-utf8", Severity: okf.Error, Spec: "§4", Decision: "D6", Scope: ScopeBundle,
		Title: "file is not UTF-8",
		Doc:   "Every concept is a UTF-8 Markdown file (§4). Re-save the file as UTF-8.\n\nBad: a file saved as Latin-1 with `café`.\n\nGood: the same file saved as UTF-8.",
		Check: loaderRule(okf.CodeNotUTF8)}
	IndexFrontmatter = &Rule{Code: okf.CodeIndexFrontmatter, Name: "index-frontmatter", Severity: okf.Error, Spec: "§8", Decision: "D7", Scope: ScopeBundle,
		Title: "frontmatter in an index.md below the root",
		Doc:   "Index files contain no frontmatter, except okf_version in the bundle root's index.md (§8, §12).\n\nBad (tables/index.md):\n\n    ---\n    title: Tables\n    ---\n\nGood:\n\n    # Tables\n\n    * [Orders](orders.md) - One row per order.",
		Check: loaderRule(okf.CodeIndexFrontmatter)}
	RootIndexKeys = &Rule{Code: okf.CodeRootIndexKeys, Name: "root-index-keys", Severity: okf.Error, Spec: "§8", Decision: "D7", Scope: ScopeBundle,
		Title: "root index.md frontmatter with keys besides okf_version",
		Doc:   "The bundle-root index.md may carry only `okf_version` (§8, §12).\n\nBad:\n\n    ---\n    okf_version: \"0.2\"\n    title: Acme\n    ---\n\nGood:\n\n    ---\n    okf_version: \"0.2\"\n    ---",
		Check: loaderRule(okf.CodeRootIndexKeys)}
	LogHeadingDate = &Rule{Code: okf.CodeLogHeading, Name: "log-heading-date", Severity: okf.Error, Spec: "§9", Decision: "D8", Scope: ScopeBundle,
		Title: "log date heading without a valid YYYY-MM-DD date",
		Doc: "Every `##` heading of a log.md is a date group and must begin with an ISO 8601 date (§9, D8), and the " +
			"date must be a day of the calendar: `2026-02-30` is invalid. A `##` line inside a fenced code block is code, not a heading.\n\n" +
			"Bad:\n\n    ## June 13th\n    ## 2026-02-30\n\nGood:\n\n    ## 2026-06-13",
		Check: loaderRule(okf.CodeLogHeading)}
	FileUnreadable = &Rule{Code: okf.CodeUnreadable, Name: "file-unreadable", Severity: okf.Error, Spec: "§11", Scope: ScopeBundle,
		Title: "file cannot be read",
		Doc:   "A file of the bundle could not be read, so its conformance cannot be established: permissions or an I/O error; a named pipe, socket or device where a file was expected (never opened, so okf cannot hang on it); a file larger than the size limit (8 MiB unless --max-file-size or max_file_size in .okf.yaml says otherwise; skipped without being read); or a path whose symbolic links lead outside the bundle.\n\nBad: a concept readable only by another user; a 200 MB `data.md`.\n\nGood: every file a regular file, readable by the linter, under the size limit.",
		Check: loaderRule(okf.CodeUnreadable)}
	SymlinkOutside = &Rule{Code: okf.CodeSymlinkOutside, Name: "symlink-outside", Severity: okf.Warning, Decision: "D5", Scope: ScopeBundle,
		Title: "symbolic link leading outside the bundle",
		Doc:   "Symbolic links that lead outside the root are not followed (D5): the bundle is not self-contained.\n\nBad: `tables/orders.md -> /home/me/orders.md`.\n\nGood: the file copied into the bundle.",
		Check: loaderRule(okf.CodeSymlinkOutside)}
	LogFrontmatterInvalid = &Rule{Code: okf.CodeLogFrontmatter, Name: "log-frontmatter-invalid", Severity: okf.Warning, Spec: "§9", Decision: "D8", Scope: ScopeBundle,
		Title: "log.md frontmatter cannot be read",
		Doc:   "Frontmatter is allowed in log.md (D8), but it must be valid YAML and closed.\n\nBad:\n\n    ---\n    title: History: all\n    ---\n\nGood:\n\n    ---\n    title: \"History: all\"\n    ---",
		Check: loaderRule(okf.CodeLogFrontmatter)}
	FrontmatterDelimiterLoose = &Rule{Code: okf.CodeLooseDelimiter, Name: "frontmatter-delimiter-loose", Severity: okf.Warning, Spec: "§4.1", Decision: "D2", Scope: ScopeBundle,
		Fix: &Fixer{Make: fixLooseDelimiter,
			Doc: "rewrites the delimiter line as exactly --- (its spaces and tabs removed; the line ending stays)"},
		Title: "frontmatter delimiter with spaces or tabs around ---",
		Doc: "A delimiter line is `---` once surrounding spaces and tabs are stripped, as Google's reference parser reads it, " +
			"so the file is conformant (D2). Other OKF tools demand exactly `---` and see no frontmatter, or an unterminated " +
			"block, in such a file.\n\nBad (a trailing space):\n\n    --- \n    type: Metric\n    ---\n\nGood:\n\n    ---\n    type: Metric\n    ---",
		Check: loaderRule(okf.CodeLooseDelimiter)}
)
