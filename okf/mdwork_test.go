package okf

import (
	"flag"
	"os"
	"runtime"
	"strings"
	"testing"
)

// workShape describes a body by its shape rather than its text: pre, then open k times, the i-th
// time after indent repeated i times (so a nonempty indent nests: lists, quotes, code spans of
// growing length), then close k times. shapeBody grows k until the body has the size asked for,
// so one shape is measured at several sizes.
type workShape struct{ name, pre, open, indent, close string }

// fallback, as a prefix, sends the whole body to goldmark (the fast path takes no HTML block).
const fallback = "<div>\n\n"

// workShapes are the shapes of text the Markdown reader has been, or might be, superlinear on:
// each is measured bare and after fallback.
var workShapes = []workShape{
	{"refdef angle", "", "[a]: <\n", "", ""},
	{"refdef angle dest", "", "[a]: <b\n", "", ""},
	{"refdef title dq", "", "[a]: b \"\n", "", ""},
	{"refdef title sq", "", "[a]: b '\n", "", ""},
	{"refdef title paren", "", "[a]: b (\n", "", ""},
	{"refdef title next line", "", "[a]: b\n(\n", "", ""},
	{"refdef no dest", "", "[a]:\n", "", ""},
	{"refdef open label", "", "[a\n", "", ""},
	{"refdefs valid", "", "[a]: b\n", "", ""},
	{"refdefs after text", "x\n", "[a]: b\n", "", ""},
	{"refdef in list", "", "- [a]: <\n", "", ""},
	{"refdef in quote", "", "> [a]: <\n", "", ""},
	{"image refdef", "", "![a]: <\n", "", ""},
	{"label lines", "", "[a]\n", "", ""},
	{"quote label lines", "", "> [a]\n", "", ""},
	{"quote emphasis lines", "", "> *a_\n", "", ""},
	{"brackets nested", "", "[", "", "]"},
	{"brackets open", "", "[", "", ""},
	{"brackets close", "", "]", "", ""},
	{"images open", "", "![", "", ""},
	{"bracket paren", "", "](", "", ""},
	{"empty link open", "", "[](", "", ""},
	{"links nested", "", "[", "", "](b)"},
	{"images nested", "", "![", "", "](b)"},
	{"link text nested", "", "[a", "", "](b)"},
	{"brackets lines", "", "[\n", "", "]\n"},
	{"brackets nested ref", "", "[", "", "][a]"},
	{"link ref full", "", "[a][", "", ""},
	{"link dest", "", "[a](", "", ""},
	{"link dest parens", "[a](", "(", "", ""},
	{"link parens nested", "", "[a](b", "", ")"},
	{"link title dq", "", "[a](b \"", "", ""},
	{"link title paren", "", "[a](b (", "", ""},
	{"link title paren lines", "", "[a](b (\n", "", ""},
	{"link dest lines", "", "[a](\n", "", ""},
	{"list nested", "", "- a\n", "  ", ""},
	{"list nested bare", "", "-\n", "  ", ""},
	{"ordered nested", "", "1. a\n", "   ", ""},
	{"star list nested", "", "* a\n", "  ", ""},
	{"list nested lazy", "", "- a\nb\n", "  ", ""},
	{"quote growing", "", ">\n", ">", ""},
	{"quote list growing", "", "- a\n", "> ", ""},
	{"list quote growing", "", "> a\n", "  ", ""},
	{"quote list lines", "", "> - a\n", "", ""},
	{"quotes at limit", "", strings.Repeat(">", 100) + " a\n", "", ""},
	{"lists at limit", "", strings.Repeat("- ", 100) + "a\n", "", ""},
	{"quotes at limit lazy", strings.Repeat(">", 100) + " a\n", "a\n", "", ""},
	{"mixed containers", "", "> 1. - ", "", ""},
	{"footnote defs nested", "", "[^a]: ", "", ""},
	{"footnote defs indented", "", "[^a]:\n", "    ", ""},
	{"footnote open", "", "[^", "", ""},
	{"footnote refs", "[^a]: x\n\n", "[^a]", "", ""},
	{"emphasis star", "", "*", "", ""},
	{"emphasis words", "", "*a ", "", ""},
	{"strong words", "", "**a ", "", ""},
	{"underscore words", "", "_a ", "", ""},
	{"emphasis nested", "", "*a **", "", ""},
	{"emphasis lines", "", "*a\n", "", ""},
	{"autolink open", "", "<", "", ""},
	{"autolink http", "", "<http://", "", ""},
	{"autolink mail", "", "<a@", "", ""},
	{"html tag open", "", "<a ", "", ""},
	{"html attr open", "", "<a b=\"", "", ""},
	{"html blocks", "", "<div>\n", "", ""},
	{"html comment open", "", "<!--", "", ""},
	{"html comment lines", "", "<!--\n", "", ""},
	{"html pi", "", "<?", "", ""},
	{"html cdata", "", "<![CDATA[", "", ""},
	{"html decl", "", "<!A", "", ""},
	{"inline comment open", "", "a <!-- ", "", ""},
	{"pipes", "", "|", "", ""},
	{"table rows", "", "| a | b |\n", "", ""},
	{"setext", "", "a\n=\n", "", ""},
	{"setext dash", "", "a\n---\n", "", ""},
	{"atx", "", "# a\n", "", ""},
	{"hashes", "", "#", "", ""},
	{"backticks", "", "`", "", ""},
	{"backtick runs growing", "", "a", "`", ""},
	{"backtick runs growing 2", "", "`a", "`", ""},
	{"fences growing", "", "a\n", "`", ""},
	{"tilde fences growing", "", "\n", "~", ""},
	{"fences", "", "```\n", "", ""},
	{"entity amp", "", "&", "", ""},
	{"entity hash", "", "&#", "", ""},
	{"entities", "", "&amp;", "", ""},
	{"entity long", "", "&aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "", ""},
	{"backslash", "", "\\", "", ""},
	{"escaped brackets", "", "\\[", "", ""},
	{"tab list", "", "-\t", "", ""},
	{"tab lines", "", "\ta\n", "", ""},
	{"indented code", "", "    a\n", "", ""},
	{"bang", "", "!", "", ""},
	{"lt lines", "", "a <\n", "", ""},
	{"hard breaks", "", "a  \n", "", ""},
	{"backslash breaks", "", "a\\\n", "", ""},
	{"items", "", "- a\n", "", ""},
	{"ordered items", "", "1. a\n", "", ""},
	{"links", "", "[a](b.md) ", "", ""},
	{"prose", "", "Some words of prose, [a link](a.md) and `code`.\n", "", ""},
}

// shapeBody is the body of s of at least n bytes (see workShape).
func shapeBody(s workShape, n int) string {
	var b strings.Builder
	b.WriteString(s.pre)
	k := 0
	for b.Len()+k*len(s.close) < n {
		b.WriteString(strings.Repeat(s.indent, k))
		b.WriteString(s.open)
		k++
	}
	b.WriteString(strings.Repeat(s.close, k))
	return b.String()
}

// bodyWork parses body as the loader does (ParseConcept: the scan of tame.go, the fast path or
// goldmark, okf's walks) and returns the bytes and objects it allocated, and the CPU time it took.
func bodyWork(body string) (bytes, objects uint64, cpu float64) {
	src := []byte("---\ntype: R\n---\n" + body)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	c0 := threadCPU()
	ParseConcept("w.md", src)
	cpu = threadCPU() - c0
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc, m1.Mallocs - m0.Mallocs, cpu
}

// FuzzMarkdownWork: the work of reading a body grows linearly with its size, whatever its shape.
// A fuzz input is a shape (workShape's pre, open, indent, close), read at two sizes, the second
// 16 times the first: the memory it allocates (bytes and objects, counted exactly) may grow at
// most 3 × 16 times, and stay under 1 KiB per byte of body. CPU time is compared the same way only
// when fuzzing (-fuzz): a plain `go test` asserts nothing about time, so a loaded machine cannot
// make it fail, and its seeds are checked for memory only.
//
// Run: go test ./okf -run '^$' -fuzz FuzzMarkdownWork -fuzztime 10m
func FuzzMarkdownWork(f *testing.F) {
	for _, s := range workShapes {
		f.Add(s.pre, s.open, s.indent, s.close)
		f.Add(fallback+s.pre, s.open, s.indent, s.close)
	}
	fuzzing := false
	if fl := flag.Lookup("test.fuzz"); fl != nil && fl.Value.String() != "" || os.Getenv("OKF_WORK_CPU") != "" {
		fuzzing = true
	}
	small := 4 << 10
	if fuzzing {
		small = 16 << 10
	}
	const growth = 16
	f.Fuzz(func(t *testing.T, pre, open, indent, close string) {
		if open == "" || len(pre)+len(open)+len(indent)+len(close) > 256 {
			return
		}
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		s := workShape{pre: pre, open: open, indent: indent, close: close}
		b1, b2 := shapeBody(s, small), shapeBody(s, growth*small)
		a1, o1, c1 := bodyWork(b1)
		a2, o2, c2 := bodyWork(b2)
		n1, n2 := float64(len(b1)), float64(len(b2))
		ratio := n2 / n1
		if testing.Verbose() && os.Getenv("OKF_WORK_LOG") != "" {
			t.Logf("%.0f→%.0f bytes: alloc %.0f→%.0f B/B, objects ×%.1f, cpu %.4f→%.4f s (×%.1f)", n1, n2, float64(a1)/n1, float64(a2)/n2, float64(o2)/float64(o1), c1, c2, c2/c1)
		}
		if float64(a2) > 1024*n2 {
			t.Errorf("%d bytes allocated for a body of %.0f bytes (%.0f a byte)", a2, n2, float64(a2)/n2)
		}
		if float64(a2) > 3*ratio*float64(a1)+(1<<20) {
			t.Errorf("allocated bytes grew %.1f times for a body %.1f times larger (%d → %d)", float64(a2)/float64(a1), ratio, a1, a2)
		}
		if float64(o2) > 3*ratio*float64(o1)+10_000 {
			t.Errorf("allocated objects grew %.1f times for a body %.1f times larger (%d → %d)", float64(o2)/float64(o1), ratio, o1, o2)
		}
		if fuzzing {
			// CPU: the smaller of two runs, against 3 × linear and 4 µs a byte, with 50 ms slack.
			_, _, c1b := bodyWork(b1)
			_, _, c2b := bodyWork(b2)
			c1, c2 = min(c1, c1b), min(c2, c2b)
			if c2 > 3*ratio*c1+0.05 || c2 > 4e-6*n2+0.05 {
				t.Errorf("CPU %.3fs for %.0f bytes, %.3fs for %.0f", c1, n1, c2, n2)
			}
		}
	})
}
