package lint

import (
	"fmt"
	"strings"

	"github.com/okf-tools/okf/internal/suggest"
	"github.com/okf-tools/okf/okf"
)

// DisableDirective starts an inline suppression comment: `<!-- okf-lint-disable CODE[,CODE…] -->`
// in a concept body turns those rules (codes or names) off for that file; with no code, every rule.
const DisableDirective = "okf-lint-disable"

// DisableNextLineDirective, `<!-- okf-lint-disable-next-line CODE[,CODE…] -->`, turns those rules
// (with no code, every rule) off for the line after the comment only.
const DisableNextLineDirective = "okf-lint-disable-next-line"

// directivePrefix starts every okf directive; a comment starting with it that is no known
// directive (okf-lint-disabel, okf-lint-enable) is reported, never silently ignored.
const directivePrefix = "okf-lint-"

var knownDirectives = []string{DisableDirective, DisableNextLineDirective}

// directive is one suppression comment of a file.
type directive struct {
	pos okf.Position
	// codes are the rules it names (nil: all rules).
	codes map[string]bool
	// named lists the known codes in the order written, for the message.
	named []string
	used  bool
	// line, when not 0, limits the directive to the findings on that line (disable-next-line).
	line int
	name string
}

func (d *directive) covers(code string, line int) bool {
	return (d.codes == nil || d.codes[code]) && (d.line == 0 || d.line == line)
}

// suppressions are the directives of every concept, by path, and the findings about the directives
// themselves (unknown rule names).
type suppressions struct {
	byPath map[string][]*directive
	diags  []okf.Diagnostic
}

// parseSuppressions reads the suppression comments of every concept body: comments(i) returns
// the HTML comments of b.Concepts[i] (all of them, or only the lint directives among them).
func parseSuppressions(b *okf.Bundle, comments func(i int) []okf.Comment) *suppressions {
	s := &suppressions{byPath: map[string][]*directive{}}
	for i, c := range b.Concepts {
		for _, cm := range comments(i) {
			if !strings.HasPrefix(cm.Text, directivePrefix) {
				continue
			}
			word, rest := cm.Text, ""
			if i := strings.IndexAny(cm.Text, " \t\r\n"); i >= 0 {
				word, rest = cm.Text[:i], cm.Text[i:]
			}
			d := &directive{pos: cm.Pos, name: word}
			switch word {
			case DisableDirective:
			case DisableNextLineDirective:
				d.line = cm.EndLine + 1
			default:
				msg := fmt.Sprintf("unknown directive %q (okf knows %s)", word, strings.Join(knownDirectives, " and "))
				if near := suggest.Closest(word, knownDirectives); near != "" {
					msg = fmt.Sprintf("unknown directive %q (did you mean %s?)", word, near)
				}
				s.diags = append(s.diags, okf.Diagnostic{Pos: cm.Pos, Code: ConfigUnknownRule.Code, Severity: ConfigUnknownRule.Severity, Message: msg})
				continue
			}
			fields := strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
			if len(fields) > 0 {
				d.codes = map[string]bool{}
				for _, f := range fields {
					r := Lookup(f)
					if r == nil {
						s.diags = append(s.diags, okf.Diagnostic{Pos: cm.Pos, Code: ConfigUnknownRule.Code, Severity: ConfigUnknownRule.Severity,
							Message: fmt.Sprintf("%s names unknown rule %q (okf lint --list-rules lists them)", word, f)})
						continue
					}
					if !d.codes[r.Code] {
						d.codes[r.Code] = true
						d.named = append(d.named, r.Code)
					}
				}
				if len(d.codes) == 0 {
					// Only unknown names: already reported, and it must not turn into "disable all".
					continue
				}
			}
			s.byPath[c.Path] = append(s.byPath[c.Path], d)
		}
	}
	return s
}

// suppressionDiagnostics returns the findings about the directives with the given code.
func (p *Pass) suppressionDiagnostics(code string) []okf.Diagnostic {
	if p.supp == nil {
		return nil
	}
	var out []okf.Diagnostic
	for _, d := range p.supp.diags {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

// apply drops the findings a directive of their file covers, marking the directive used. Findings
// about the directives themselves are never suppressed: a comment cannot hide its own mistake.
func (s *suppressions) apply(ds []okf.Diagnostic) []okf.Diagnostic {
	if len(s.byPath) == 0 {
		return ds
	}
	out := ds[:0]
	for _, d := range ds {
		dirs := s.byPath[d.Pos.Path]
		hit := false
		if d.Code != ConfigUnknownRule.Code || !s.isDirectivePos(d.Pos) {
			for _, dir := range dirs {
				if dir.covers(d.Code, int(d.Pos.Line)) {
					dir.used = true
					hit = true
				}
			}
		}
		if !hit {
			out = append(out, d)
		}
	}
	return out
}

func (s *suppressions) isDirectivePos(p okf.Position) bool {
	for _, d := range s.diags {
		if d.Pos == p {
			return true
		}
	}
	return false
}

// unused returns an OKF904 finding for every directive that suppressed nothing.
func (s *suppressions) unused() []okf.Diagnostic {
	var out []okf.Diagnostic
	for _, dirs := range s.byPath {
		for _, d := range dirs {
			if d.used {
				continue
			}
			what := "every rule"
			if d.codes != nil {
				what = strings.Join(d.named, ", ")
			}
			where := "in this file"
			if d.line != 0 {
				where = fmt.Sprintf("on line %d", d.line)
			}
			out = append(out, okf.Diagnostic{Pos: d.pos, Code: UnusedSuppression.Code, Severity: UnusedSuppression.Severity,
				Message: fmt.Sprintf("%s (%s) suppresses nothing %s: remove it", d.name, what, where)})
		}
	}
	return out
}
