package attest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/okf-tools/okf/internal/sqllex"
)

var simpleIdent = &lazyRegexp{Expr: `^[a-z_][a-z0-9_]*$`}

// canonicalTokens renders the tokens the canonical comparison sees: words lower-cased, a quoted
// identifier whose content is a plain lower-case name (or a dotted chain of them, as BigQuery's
// `project.dataset.table`) unquoted, placeholders kept by name, trailing semicolons dropped.
// String literals and numbers stay exactly as written.
func canonicalTokens(src, runtime string) []string {
	var out []string
	for _, t := range sqllex.Lex(src, runtime) {
		switch t.Kind {
		case sqllex.Word:
			out = append(out, strings.ToLower(t.Text))
		case sqllex.Quoted:
			inner := t.Text[1:]
			if len(inner) > 0 {
				inner = inner[:len(inner)-1]
			}
			parts := strings.Split(inner, ".")
			plain := true
			for _, p := range parts {
				if !simpleIdent.Get().MatchString(p) {
					plain = false
				}
			}
			if !plain || (len(parts) > 1 && t.Text[0] != '`') {
				out = append(out, t.Text)
				continue
			}
			for k, p := range parts {
				if k > 0 {
					out = append(out, ".")
				}
				out = append(out, p)
			}
		default:
			out = append(out, t.Text)
		}
	}
	for len(out) > 0 && out[len(out)-1] == ";" {
		out = out[:len(out)-1]
	}
	return out
}

// CanonicalSQL is the form two queries are compared in by builtin:sql-equality: comments and
// whitespace removed, keyword and identifier case folded, plain identifier quoting removed, named
// placeholders compared by name (§10.3: the comparison is mechanical). runtime picks the dialect.
func CanonicalSQL(src, runtime string) string {
	return strings.Join(canonicalTokens(src, runtime), " ")
}

// sqlDiff compares two queries canonically. It returns "" when they are equal, else a short
// description of the first difference.
func sqlDiff(sanctioned, executed, runtime string) string {
	a, b := canonicalTokens(sanctioned, runtime), canonicalTokens(executed, runtime)
	for i := 0; i < len(a) || i < len(b); i++ {
		switch {
		case i >= len(a):
			return fmt.Sprintf("executed SQL has extra text after the sanctioned query ends, at token %d: %q", i+1, around(b, i))
		case i >= len(b):
			return fmt.Sprintf("executed SQL ends early, at token %d; the sanctioned query goes on with %q", i+1, around(a, i))
		case a[i] != b[i]:
			return fmt.Sprintf("token %d differs: sanctioned %q, executed %q", i+1, around(a, i), around(b, i))
		}
	}
	return ""
}

// around shows up to five tokens from i.
func around(toks []string, i int) string {
	end := min(i+5, len(toks))
	return strings.Join(toks[i:end], " ")
}

// positional rewrites @name placeholders as $1, $2, … (one number per distinct name, in order of
// first appearance) for drivers that take positional parameters (postgres). Values are never put
// into the text: order says which value goes to which number.
func positional(src, runtime string) (string, []string) {
	var b strings.Builder
	var order []string
	num := map[string]int{}
	last := 0
	for _, t := range sqllex.Lex(src, runtime) {
		if t.Kind != sqllex.Param {
			continue
		}
		name := t.Text[1:]
		k, ok := num[name]
		if !ok {
			order = append(order, name)
			k = len(order)
			num[name] = k
		}
		b.WriteString(src[last:t.Start])
		b.WriteString("$" + strconv.Itoa(k))
		last = t.End
	}
	b.WriteString(src[last:])
	return b.String(), order
}
