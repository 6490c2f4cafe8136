package lint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
)

// SARIFPrinter writes a SARIF 2.1.0 log that GitHub code scanning accepts
// (github/codeql-action/upload-sarif): the rules with their docs in tool.driver.rules, and one
// result per finding with its region. Columns are counted in Unicode code points, as okf counts them.
type SARIFPrinter struct{}

// The SARIF objects okf writes: a small subset of the format, with the fields GitHub reads.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool     `json:"tool"`
		ColumnKind string        `json:"columnKind"`
		Results    []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Version        string      `json:"version,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifText struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifRule struct {
		ID                   string          `json:"id"`
		Name                 string          `json:"name"`
		ShortDescription     sarifText       `json:"shortDescription"`
		FullDescription      sarifText       `json:"fullDescription"`
		HelpURI              string          `json:"helpUri"`
		Help                 sarifText       `json:"help"`
		DefaultConfiguration sarifConfig     `json:"defaultConfiguration"`
		Properties           sarifProperties `json:"properties"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifProperties struct {
		Tags []string `json:"tags"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		Fixes               []sarifFix        `json:"fixes,omitempty"`
	}
	sarifFix struct {
		Description     sarifText           `json:"description"`
		ArtifactChanges []sarifArtifactEdit `json:"artifactChanges"`
	}
	sarifArtifactEdit struct {
		ArtifactLocation sarifArtifact      `json:"artifactLocation"`
		Replacements     []sarifReplacement `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifRegion  `json:"deletedRegion"`
		InsertedContent *sarifInsert `json:"insertedContent,omitempty"`
	}
	sarifInsert struct {
		Text string `json:"text"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
)

// sarifLevel maps a severity to a SARIF level: info is a "note".
func sarifLevel(s okf.Severity) string {
	switch s {
	case okf.Error:
		return "error"
	case okf.Warning:
		return "warning"
	}
	return "note"
}

// firstParagraph is the explanation without the examples, for fullDescription.
func firstParagraph(doc string) string {
	p, _, _ := strings.Cut(doc, "\n\n")
	return p
}

// sarifURI makes a display path a relative URI reference (spaces and other reserved characters
// percent-encoded), which is what artifactLocation.uri must be.
func sarifURI(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}

// Print writes the SARIF log as indented JSON.
func (SARIFPrinter) Print(w io.Writer, r *Report) error {
	log, result := r.sarif()
	return writeSARIF(w, log, len(r.Diagnostics), result)
}

// sarif returns the report's SARIF log without its results, and how to make the result of its
// i-th finding.
func (r *Report) sarif() (sarifLog, func(i int) sarifResult) {
	rules := r.rules()
	index := make(map[string]int, len(rules))
	driver := sarifDriver{Name: "okf", InformationURI: "https://github.com/okf-tools/okf", Version: r.Version, Rules: make([]sarifRule, 0, len(rules))}
	for i, rule := range rules {
		index[rule.Code] = i
		tags := []string{"okf", rule.Source()}
		if rule.Decision != "" {
			tags = append(tags, rule.Decision)
		}
		driver.Rules = append(driver.Rules, sarifRule{
			ID: rule.Code, Name: rule.Name,
			ShortDescription:     sarifText{Text: rule.Title},
			FullDescription:      sarifText{Text: firstParagraph(rule.Doc)},
			HelpURI:              rule.HelpURI(),
			Help:                 sarifText{Text: rule.Doc, Markdown: rule.Doc},
			DefaultConfiguration: sarifConfig{Level: sarifLevel(rule.Severity)},
			Properties:           sarifProperties{Tags: tags},
		})
	}
	result := func(d okf.Diagnostic) sarifResult {
		idx, ok := index[d.Code]
		if !ok {
			idx = -1
		}
		region := sarifRegion{StartLine: int(max(d.Pos.Line, 1)), StartColumn: int(d.Pos.Col)}
		if d.End.Line > 0 {
			region.EndLine, region.EndColumn = int(d.End.Line), int(d.End.Col)
		}
		var fixes []sarifFix
		if f, ok := r.Fixes[d]; ok {
			fixes = r.sarifFixes(f)
		}
		return sarifResult{
			RuleID: d.Code, RuleIndex: idx, Level: sarifLevel(d.Severity), Message: sarifText{Text: d.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: sarifURI(r.path(d.Pos.Path))}, Region: region}}},
			// The baseline's key, which survives edits elsewhere in the file.
			PartialFingerprints: map[string]string{"okfFinding/v1": messageHash(r.bundlePath(d.Pos.Path) + "\x00" + d.Code + "\x00" + d.Message)},
			Fixes:               fixes,
		}
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, ColumnKind: "unicodeCodePoints", Results: []sarifResult{}}
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	return log, func(i int) sarifResult { return result(r.Diagnostics[i]) }
}

// writeSARIF writes the log as indented JSON with its one run's n results, result(i) each, made
// and written one at a time: the log holding them all, then its indented text, cost a 17 MB file
// (17,000 findings) three copies of itself in memory and a third of the run's CPU. The text is the
// same as encoding the whole log at once (the results are the run's last field, and each is
// indented at the depth it sits at). The log's run must hold no results.
func writeSARIF(w io.Writer, log sarifLog, n int, result func(i int) sarifResult) error {
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(log); err != nil {
		return err
	}
	doc := head.Bytes()
	// The run's results, its last field: a quote inside a string is escaped, so this is the key.
	const empty = `"results": []`
	at := bytes.LastIndex(doc, []byte(empty))
	if n == 0 || at < 0 {
		_, err := w.Write(escape.JSONLog(doc))
		return err
	}
	open := at + len(empty) - 1 // the results' ']'
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(escape.JSONLog(doc[:open]))
	const depth = "        " // log, runs, run, results
	var rb bytes.Buffer
	renc := json.NewEncoder(&rb)
	renc.SetIndent(depth, "  ")
	renc.SetEscapeHTML(false)
	for i := range n {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n" + depth)
		rb.Reset()
		if err := renc.Encode(result(i)); err != nil {
			return err
		}
		bw.Write(escape.JSONLog(bytes.TrimSuffix(rb.Bytes(), []byte("\n"))))
	}
	bw.WriteString("\n      ")
	bw.Write(escape.JSONLog(doc[open:]))
	return bw.Flush()
}

// sarifFixes writes a fix as SARIF artifact changes: each edit's byte range becomes a region of
// lines and code-point columns (an insertion is an empty region), which code-scanning UIs can
// offer to apply. Nothing is written when the file cannot be read.
func (r *Report) sarifFixes(f Fix) []sarifFix {
	if r.ReadFile == nil {
		return nil
	}
	if r.fixSrc == nil || r.fixFile != f.Path {
		src, err := r.ReadFile(f.Path)
		if err != nil {
			return nil
		}
		r.fixFile, r.fixSrc = f.Path, src
	}
	src := r.fixSrc
	change := sarifArtifactEdit{ArtifactLocation: sarifArtifact{URI: sarifURI(r.path(f.Path))}}
	for _, e := range f.Edits {
		if e.Start < 0 || e.End > len(src) || e.Start > e.End {
			return nil
		}
		sl, sc := lineColumn(src, e.Start)
		el, ec := lineColumn(src, e.End)
		rep := sarifReplacement{DeletedRegion: sarifRegion{StartLine: sl, StartColumn: sc, EndLine: el, EndColumn: ec}}
		if e.New != "" {
			rep.InsertedContent = &sarifInsert{Text: e.New}
		}
		change.Replacements = append(change.Replacements, rep)
	}
	return []sarifFix{{Description: sarifText{Text: f.Description}, ArtifactChanges: []sarifArtifactEdit{change}}}
}

// lineColumn turns a byte offset into a 1-based line and code-point column.
func lineColumn(src []byte, off int) (int, int) {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return bytes.Count(src[:off], []byte{'\n'}) + 1, utf8.RuneCount(src[start:off]) + 1
}
