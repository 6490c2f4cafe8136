// Package sqllex reads the SQL of an Attested Computation (§10, D17) as lint and attest need it:
// which runtimes are SQL (IsSQLRuntime), its tokens with their spans (Lex), so attest can compare
// two queries and rewrite a placeholder in place, and the parameter references of a computation in
// its runtime's syntax (Placeholders). It is a leaf over internal/lazyre and imports nothing of okf.
package sqllex

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/lazyre"
)

// Kind is the class of a SQL token.
type Kind int

// The SQL token kinds.
const (
	Word   Kind = iota // keyword or bare identifier (also @@system_variable)
	Quoted             // quoted identifier ("x", `x`)
	String             // string literal ('x'; "x" in BigQuery and MySQL)
	Number             // numeric literal
	Param              // named placeholder (@name)
	Punct              // any other character
)

// Token is one lexical unit of SQL text with its byte span, so a placeholder can be found or
// rewritten in place (postgres $n) without touching anything else.
type Token struct {
	Kind       Kind
	Text       string // as written
	Start, End int
}

// dialect says how a runtime's SQL quotes: BigQuery and MySQL read "x" as a string and allow # and
// backslash escapes; the others read "x" as an identifier.
type dialect struct {
	doubleQuoteString bool
	hashComment       bool
	backslashEscape   bool
}

func dialectOf(runtime string) dialect {
	switch strings.ToLower(strings.TrimSpace(runtime)) {
	case "bigquery", "mysql", "mariadb", "spark", "databricks":
		return dialect{doubleQuoteString: true, hashComment: true, backslashEscape: true}
	}
	return dialect{}
}

// sqlRuntimes are the runtimes whose computation is SQL with @name placeholders (D17).
var sqlRuntimes = map[string]bool{
	"sql": true, "sqlite": true, "postgres": true, "postgresql": true, "bigquery": true, "duckdb": true,
	"snowflake": true, "mysql": true, "mariadb": true, "mssql": true, "sqlserver": true,
	"redshift": true, "trino": true, "presto": true, "spark": true, "sparksql": true, "databricks": true,
	"athena": true, "oracle": true, "clickhouse": true,
}

// IsSQLRuntime reports whether a runtime's computation is SQL with `@name` placeholders (D17), so
// placeholder checks and the SQL canonicalizer apply to it.
func IsSQLRuntime(runtime string) bool {
	return sqlRuntimes[strings.ToLower(strings.TrimSpace(runtime))]
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Lex splits SQL into tokens, dropping whitespace and comments, with the quoting rules of the
// runtime's dialect. It never fails: an unterminated quote or comment runs to the end of the text,
// so a broken query can still be compared.
func Lex(src, runtime string) []Token {
	return lexSQL(src, dialectOf(runtime))
}

func lexSQL(src string, d dialect) []Token {
	var toks []Token
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
			toks = append(toks, Token{String, src[i:j], i, j})
			i = j
		case r == '"' || r == '`':
			j := scanQuoted(src, i, byte(r), false)
			toks = append(toks, Token{Quoted, src[i:j], i, j})
			i = j
		case r == '@' && i+1 < n && src[i+1] != '@':
			r2, _ := utf8.DecodeRuneInString(src[i+1:])
			if !isIdentStart(r2) {
				toks = append(toks, Token{Punct, "@", i, i + 1})
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
			toks = append(toks, Token{Param, src[i:j], i, j})
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
			toks = append(toks, Token{Word, src[i:j], i, j})
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
			toks = append(toks, Token{Number, src[i:j], i, j})
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
			toks = append(toks, Token{Word, src[i:j], i, j})
			i = j
		default:
			toks = append(toks, Token{Punct, src[i : i+w], i, i + w})
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

// Placeholder is one parameter reference in a computation, with its byte offset in the text.
type Placeholder struct {
	Name   string
	Offset int
}

// PlaceholderSyntax says how a runtime writes its parameters in the computation (D17): "sql" for
// `@name`, "dbt" for `var('name')`, "" when okf does not know (python, Looker: parameters are
// arguments or fields, not text).
func PlaceholderSyntax(runtime string) string {
	switch {
	case strings.EqualFold(strings.TrimSpace(runtime), "dbt"):
		return "dbt"
	case IsSQLRuntime(runtime):
		return "sql"
	}
	return ""
}

// lazyRegexp is a regular expression compiled on its first use (see internal/lazyre).
type lazyRegexp = lazyre.Regexp

var dbtVarRE = &lazyRegexp{Expr: `\bvar\(\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]`}

// Placeholders lists the parameter references of a computation in order of appearance, in the
// runtime's syntax (D17): `@name` outside string literals, quoted identifiers and comments for SQL
// runtimes (`@@system_variable` is not one), `var('name')` for dbt, none for other runtimes.
func Placeholders(src, runtime string) []Placeholder {
	var out []Placeholder
	switch PlaceholderSyntax(runtime) {
	case "sql":
		for _, t := range Lex(src, runtime) {
			if t.Kind == Param {
				out = append(out, Placeholder{Name: t.Text[1:], Offset: t.Start})
			}
		}
	case "dbt":
		for _, m := range dbtVarRE.Get().FindAllStringSubmatchIndex(src, -1) {
			out = append(out, Placeholder{Name: src[m[2]:m[3]], Offset: m[0]})
		}
	}
	return out
}
