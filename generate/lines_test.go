package generate

import (
	"regexp"
	"strings"
	"testing"
)

// The regular expressions the line readers of lines.go replaced: the reference they are compared
// with, here and in FuzzStripMDX.
var (
	refAtxRE      = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	refSetextRE   = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
	refFootDefRE  = regexp.MustCompile(`^ {0,3}\[\^[^\]]+\]:`)
	refLinkDefRE  = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s`)
	refListMarkRE = regexp.MustCompile(`^ {0,3}([*+-]|\d{1,9}[.)])[ \t]+`)
	refRuleRE     = regexp.MustCompile(`^ {0,3}([-*_])([ \t]*[-*_]){2,}[ \t]*$`)
	refInitialsRE = regexp.MustCompile(`^(\p{L}\.){2,}$`)
	// mdx.go's.
	refAdmonitionOpenRE  = regexp.MustCompile(`^(:{3,}[ \t]*|:{2})[A-Za-z]`)
	refAdmonitionCloseRE = regexp.MustCompile(`^:{2,}$`)
	refAlertRE           = regexp.MustCompile(`^ {0,3}>[ \t]*\[![A-Za-z]+\]`)
	refStatementRE       = regexp.MustCompile(`^(import|export)(\s|\{|\*|$)`)
)

// lineMismatch compares each line reader with its regular expression on one line ('\n' split
// off by the caller), and says how they differ ("" when they agree).
func lineMismatch(line string) string {
	level, text, ok := atxHeading(line)
	if m := refAtxRE.FindStringSubmatch(line); (m != nil) != ok || ok && (len(m[1]) != level || m[2] != text) {
		return "atxHeading"
	}
	c, ok := setextUnderline(line)
	if m := refSetextRE.FindStringSubmatch(line); (m != nil) != ok || ok && m[1][0] != c {
		return "setextUnderline"
	}
	for name, pair := range map[string]struct {
		re  *regexp.Regexp
		got bool
	}{
		"footnote definition": {refFootDefRE, isBracketDef(line, true)},
		"link definition":     {refLinkDefRE, isBracketDef(line, false)},
		"isListMark":          {refListMarkRE, isListMark(line)},
		"isRule":              {refRuleRE, isRule(line)},
		"isInitials":          {refInitialsRE, isInitials(line)},
		"isAdmonitionOpen":    {refAdmonitionOpenRE, isAdmonitionOpen(line)},
		"isAdmonitionClose":   {refAdmonitionCloseRE, isAdmonitionClose(line)},
		"isAlert":             {refAlertRE, isAlert(line)},
		"isStatement":         {refStatementRE, isStatement(line)},
	} {
		if pair.re.MatchString(line) != pair.got {
			return name
		}
	}
	return ""
}

func TestLineReadersMatchReference(t *testing.T) {
	lines := []string{"", " ", "#", "# ", "#\t", "## a", "####### a", "#a", "    # a", "   # a", "# a #", "# a #b", "# a ##  ", "# #", "## #",
		"# a # #", "# a\t#\t", "#  ", "# é #", "#\xff", "=", "==", " ---", "--- ", "-=-", "    ---", "---a", "=\t", "-", "* a", "*a", "+\tb",
		"1. a", "1.a", "123456789) a", "1234567890. a", "-", "- ", "***", "* * *", " _ _ _ ", "-*_", "--", "- -", "\t---", "---\t", "[^1]: a",
		"[^]: a", "[^1]:", "[a]: b", "[a]:b", "[]: b", "[a]:", "   [a]:\tb", "    [a]: b", "[a]]: b", "[^a]]:", "z.B.", "U.S.", "a.", "a.b",
		"é.ü.", "a..b.", "1.2.", "a.b.c", "\xff.a.", ":::note", "::: tip", ":::\tx", "::x", "::", ":::", ": x", "::::", "::: ", "::1",
		"> [!NOTE]", "   >[!tip]", "    > [!NOTE]", "> [!]", "> [!NOTE", ">\t\t[!a]x", "> [ !a]", "import", "import x", "importx", "export{",
		"export*", "import\tx", " import x", "export default", "imports"}
	for _, l := range lines {
		if d := lineMismatch(l); d != "" {
			t.Errorf("%s(%q) differs from its regular expression", d, l)
		}
	}
}

// bodyLineMismatch runs lineMismatch on every line of a text.
func bodyLineMismatch(body string) (string, string) {
	for _, l := range strings.Split(body, "\n") {
		if d := lineMismatch(l); d != "" {
			return d, l
		}
	}
	return "", ""
}
