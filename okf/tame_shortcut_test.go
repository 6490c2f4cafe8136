package okf

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// tameFull runs tameBody with every paragraph and line counted, as before paragraphsBounded.
func tameFull(src []byte) ([]byte, []tamed) {
	fullTameScan = true
	defer func() { fullTameScan = false }()
	return tameBody(src, 0)
}

// TestParagraphsBoundedLimits: each limit paragraphsBounded compares its bounds with is at most
// the budget of the same count, so a body under the limit is under the budget too.
func TestParagraphsBoundedLimits(t *testing.T) {
	if 1<<20 > linkBudget || 1<<20 > bracketBudget || maxParagraphLabelCost > labelBudget ||
		maxParagraphDefCost > defBudget || maxOpenBrackets > openBracketBudget {
		t.Fatal("a limit paragraphsBounded relies on is above its budget")
	}
}

// TestTameShortcutMatchesFull: tameBody decides the same with the paragraph counts left out for
// bodies paragraphsBounded clears as with everything counted: on bodies at each limit and one past
// it (emphasis runs, unclosed brackets, link destinations, labels, nested brackets), on random
// bodies of the bytes the counts and the container depth read, dense enough in `]` that some are
// cleared and some not, and on the corpus bodies.
func TestTameShortcutMatchesFull(t *testing.T) {
	var bodies []string
	for _, k := range []int{maxParagraphDelims, maxParagraphDelims + 1} {
		bodies = append(bodies, strings.Repeat("*a", k)+"\n", strings.Repeat("_a ", k)+"\n")
	}
	for _, k := range []int{maxOpenBrackets, maxOpenBrackets + 1} {
		bodies = append(bodies, strings.Repeat("[", k)+"\n")
	}
	for _, k := range []int{500, 511, 512, 513, 700, 800, 1100} { // closes × length around 1 Mi, costs around the limits
		bodies = append(bodies, strings.Repeat("[a](", k)+"\n", strings.Repeat("[", k)+strings.Repeat("]", k)+"\n",
			strings.Repeat("[a]\n", k), strings.Repeat("> [a](<b\n", k))
	}
	bodies = append(bodies, strings.Repeat(">", 101)+" x\n", nested("- a\n", "  ", 120), nested("> - [a](b) *c*\n", "  ", 110))
	r := rand.New(rand.NewPCG(11, 12))
	pieces := []string{"*", "_", "a_b", "[", "]", "](", "[a](b)", "[a](<", "[^n]: ", "[^x]", "[r]: u", "> ", "- ", "1. ",
		"  ", "    ", "\t", "text ", "# h", "```", "\n", "\n", "\n\n", "\r\n"}
	for range 3000 {
		var b strings.Builder
		for range r.IntN(2000) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		bodies = append(bodies, b.String())
	}
	bodies = append(bodies, corpusBodies(t)...)
	cleared := 0
	for _, body := range bodies {
		src := []byte(body)
		if paragraphsBounded(src) {
			cleared++
		}
		out1, f1 := tameBody(src, 0)
		out2, f2 := tameFull(src)
		if string(out1) != string(out2) || !reflect.DeepEqual(f1, f2) {
			t.Fatalf("shortcut %v, full %v on %.300q", f1, f2, body)
		}
	}
	if cleared == 0 || cleared == len(bodies) {
		t.Fatalf("%d of %d bodies cleared: the shortcut is not compared", cleared, len(bodies))
	}
	t.Logf("%d of %d bodies cleared", cleared, len(bodies))
}

// TestTameHTMLBlockEndsParagraph: a line opening an HTML block of a block-level tag ends a
// paragraph, as in goldmark, so a paragraph then `<div>` lines and link text is not one paragraph
// of ten thousand link labels (it was refused: "a paragraph with 10000 link labels over 20000
// lines is not parsed"): goldmark reads one link, then one HTML block to the end.
func TestTameHTMLBlockEndsParagraph(t *testing.T) {
	body := []byte(strings.Repeat("text [a](nope.md)\n<div>\n", 10000))
	b := ParseBody("a.md", body, 0)
	if len(b.Links) != 1 {
		t.Errorf("%d links read, want 1", len(b.Links))
	}
	_, ts := tameBody(body, 0)
	for _, d := range ts {
		t.Errorf("refused at %d: %s", d.off, d.reason)
	}
}

// TestTameOpenBracketsBounded: a body of a million `[` is refused with its list of open brackets
// at most maxTrackedOpen long: a few bytes allocated a byte of body, not the 17 of a list grown
// to its length (which made FuzzMarkdownWork's "brackets open" seed look superlinear).
func TestTameOpenBracketsBounded(t *testing.T) {
	body := strings.Repeat("[", 1<<20)
	a, _, _ := bodyWork(body)
	if per := float64(a) / float64(len(body)); per > 4 {
		t.Errorf("%.1f bytes allocated a byte of body", per)
	}
	_, ts := tameBody([]byte(body), 0)
	if len(ts) != 1 || !strings.Contains(ts[0].reason, "unclosed brackets") {
		t.Errorf("tamed %+v, want the paragraph refused for its unclosed brackets", ts)
	}
}
