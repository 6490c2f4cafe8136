package attest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is the class of a SQL token, as far as canonical comparison needs it.
type tokKind int

const (
	tokWord   tokKind = iota // keyword or bare identifier
	tokQuoted                // quoted identifier ("x", `x`)
	tokString                // string literal ('x')
	tokNumber                // numeric literal
	tokParam                 // named placeholder (@name)
	tokPunct                 // any other character
)

// token is one lexical unit of SQL text with its byte span, so a placeholder can be rewritten in
// place (postgres $n) without touching anything else.
type token struct {
	kind       tokKind
	text       string // as written
	start, end int
}

// dialect says how a runtime's SQL quotes: BigQuery and MySQL read "x" as a string and allow # and
// backslash escapes; the others read "x" as an identifier.
type dialect struct {
	doubleQuoteString bool
	hashComment       bool
	backslashEscape   bool
}

func dialectOf(runtime string) dialect {
	switch strings.ToLower(runtime) {
	case "bigquery", "mysql", "mariadb", "spark", "databricks":
		return dialect{doubleQuoteString: true, hashComment: true, backslashEscape: true}
	}
	return dialect{}
}

// sqlRuntimes are the runtimes whose computation is SQL with @name placeholders (D17).
var sqlRuntimes = map[string]bool{
	"sqlite": true, "postgres": true, "postgresql": true, "bigquery": true, "duckdb": true,
	"snowflake": true, "mysql": true, "mariadb": true, "mssql": true, "sqlserver": true,
	"redshift": true, "trino": true, "presto": true, "spark": true, "databricks": true,
	"athena": true, "oracle": true, "clickhouse": true,
}

// IsSQLRuntime reports whether a runtime's computation is SQL with `@name` placeholders (D17), so
// placeholder checks and the SQL canonicalizer apply to it.
func IsSQLRuntime(runtime string) bool { return sqlRuntimes[strings.ToLower(runtime)] }

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// tokenize splits SQL into tokens, dropping whitespace and comments. It never fails: an
// unterminated quote or comment runs to the end of the text, so a broken query still compares.
func tokenize(src string, d dialect) []token {
	var toks []token
	i := 0
	n := len(src)
	for i < n {
		r, w := utf8.DecodeRuneInString(src[i:])
		switch {
		case unicode.IsSpace(r):
			i += w
		case strings.HasPrefix(src[i:], "--") || (d.hashComment && r == '#'):
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				i = n
			} else {
				i += j + 1
			}
		case strings.HasPrefix(src[i:], "/*"):
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				i = n
			} else {
				i += 2 + j + 2
			}
		case r == '\'' || (r == '"' && d.doubleQuoteString):
			j := scanQuoted(src, i, byte(r), d.backslashEscape)
			toks = append(toks, token{tokString, src[i:j], i, j})
			i = j
		case r == '"' || r == '`':
			j := scanQuoted(src, i, byte(r), false)
			toks = append(toks, token{tokQuoted, src[i:j], i, j})
			i = j
		case r == '@' && i+1 < n && src[i+1] != '@':
			r2, _ := utf8.DecodeRuneInString(src[i+1:])
			if !isIdentStart(r2) {
				toks = append(toks, token{tokPunct, "@", i, i + 1})
				i++
				continue
			}
			j := i + 1
			for j < n {
				r3, w3 := utf8.DecodeRuneInString(src[j:])
				if r3 == '$' || !isIdentPart(r3) {
					break
				}
				j += w3
			}
			toks = append(toks, token{tokParam, src[i:j], i, j})
			i = j
		case r == '@': // @@system_variable
			j := i + 2
			for j < n {
				r3, w3 := utf8.DecodeRuneInString(src[j:])
				if !isIdentPart(r3) {
					break
				}
				j += w3
			}
			toks = append(toks, token{tokWord, src[i:j], i, j})
			i = j
		case unicode.IsDigit(r) || (r == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9'):
			j := i
			for j < n && (isDigitOrDot(src[j]) || ((src[j] == 'e' || src[j] == 'E') && j+1 < n)) {
				if src[j] == 'e' || src[j] == 'E' {
					j++
					if j < n && (src[j] == '+' || src[j] == '-') {
						j++
					}
					continue
				}
				j++
			}
			toks = append(toks, token{tokNumber, src[i:j], i, j})
			i = j
		case isIdentStart(r):
			j := i
			for j < n {
				r3, w3 := utf8.DecodeRuneInString(src[j:])
				if !isIdentPart(r3) {
					break
				}
				j += w3
			}
			toks = append(toks, token{tokWord, src[i:j], i, j})
			i = j
		default:
			toks = append(toks, token{tokPunct, src[i : i+w], i, i + w})
			i += w
		}
	}
	return toks
}

func isDigitOrDot(c byte) bool { return c == '.' || (c >= '0' && c <= '9') }

// scanQuoted returns the end of the quoted text starting at src[i] (the quote itself). A doubled
// quote is an escaped quote; with backslash, \x escapes too.
func scanQuoted(src string, i int, q byte, backslash bool) int {
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case backslash && c == '\\':
			j += 2
			continue
		case c == q:
			if j+1 < len(src) && src[j+1] == q {
				j += 2
				continue
			}
			return j + 1
		}
		j++
	}
	return len(src)
}

var simpleIdent = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// canonicalTokens renders the tokens the canonical comparison sees: words lower-cased, a quoted
// identifier whose content is a plain lower-case name (or a dotted chain of them, as BigQuery's
// `project.dataset.table`) unquoted, placeholders kept by name, trailing semicolons dropped.
// String literals and numbers stay exactly as written.
func canonicalTokens(src string, d dialect) []string {
	var out []string
	for _, t := range tokenize(src, d) {
		switch t.kind {
		case tokWord:
			out = append(out, strings.ToLower(t.text))
		case tokQuoted:
			inner := t.text[1:]
			if len(inner) > 0 {
				inner = inner[:len(inner)-1]
			}
			parts := strings.Split(inner, ".")
			plain := true
			for _, p := range parts {
				if !simpleIdent.MatchString(p) {
					plain = false
				}
			}
			if !plain || (len(parts) > 1 && t.text[0] != '`') {
				out = append(out, t.text)
				continue
			}
			for k, p := range parts {
				if k > 0 {
					out = append(out, ".")
				}
				out = append(out, p)
			}
		default:
			out = append(out, t.text)
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
	return strings.Join(canonicalTokens(src, dialectOf(runtime)), " ")
}

// sqlDiff compares two queries canonically. It returns "" when they are equal, else a short
// description of the first difference.
func sqlDiff(sanctioned, executed, runtime string) string {
	d := dialectOf(runtime)
	a, b := canonicalTokens(sanctioned, d), canonicalTokens(executed, d)
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

// Placeholder is one `@name` in a SQL computation, with its byte offset in the text.
type Placeholder struct {
	Name   string
	Offset int
}

// Placeholders lists the named placeholders of a SQL computation in order of appearance (D17),
// skipping string literals, quoted identifiers and comments.
func Placeholders(src, runtime string) []Placeholder {
	var out []Placeholder
	for _, t := range tokenize(src, dialectOf(runtime)) {
		if t.kind == tokParam {
			out = append(out, Placeholder{Name: t.text[1:], Offset: t.start})
		}
	}
	return out
}

var dbtVarRE = regexp.MustCompile(`var\(\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]`)

// DBTVars lists the names used as var('name') in a dbt computation (D17).
func DBTVars(src string) []Placeholder {
	var out []Placeholder
	for _, m := range dbtVarRE.FindAllStringSubmatchIndex(src, -1) {
		out = append(out, Placeholder{Name: src[m[2]:m[3]], Offset: m[0]})
	}
	return out
}

// positional rewrites @name placeholders as $1, $2, … (one number per distinct name, in order of
// first appearance) for drivers that take positional parameters (postgres). Values are never put
// into the text: order says which value goes to which number.
func positional(src, runtime string) (string, []string) {
	var b strings.Builder
	var order []string
	num := map[string]int{}
	last := 0
	for _, t := range tokenize(src, dialectOf(runtime)) {
		if t.kind != tokParam {
			continue
		}
		name := t.text[1:]
		k, ok := num[name]
		if !ok {
			order = append(order, name)
			k = len(order)
			num[name] = k
		}
		b.WriteString(src[last:t.start])
		b.WriteString("$" + strconv.Itoa(k))
		last = t.end
	}
	b.WriteString(src[last:])
	return b.String(), order
}
