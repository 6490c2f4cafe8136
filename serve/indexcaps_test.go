package serve

import (
	"fmt"
	"strings"
	"testing"
)

// distinct returns n distinct words of letters, from the first'th on, separated by sep.
func distinct(first, n int, sep string) string {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		if i > first {
			b.WriteString(sep)
		}
		b.WriteByte('q')
		for v := i; ; v /= 26 {
			b.WriteByte(byte('a' + v%26))
			if v < 26 {
				break
			}
		}
	}
	return b.String()
}

// withCaps builds with the given index caps, restoring the package's after the test.
func withCaps(t *testing.T, c indexCaps) {
	t.Helper()
	old := caps
	caps = c
	t.Cleanup(func() { caps = old })
}

// TestShortFieldCaps: what a concept's title, description, tags and headings give the index is
// bounded (maxShort, maxHeadings), cut at a word's end, whatever their size; a real-sized field is
// given whole.
func TestShortFieldCaps(t *testing.T) {
	hostile := func(words int) [numFields][]byte {
		d := &doc{
			id:          "c",
			title:       distinct(0, words, " "),
			description: distinct(0, words, " "),
			tags:        strings.Fields(distinct(0, words, " ")),
			body:        []byte("# " + distinct(0, words, "\n## ") + "\n"),
		}
		return shortFields(d, nil)
	}
	small, big := hostile(20000), hostile(40000)
	for f, most := range map[int]int{fieldTitle: maxShort, fieldDescription: maxShort, fieldTags: maxShort, fieldHeadings: maxHeadings} {
		if len(small[f]) > most || len(big[f]) != len(small[f]) {
			t.Errorf("field %d: %d bytes of 20,000 words, %d of 40,000: want the same, at most %d", f, len(small[f]), len(big[f]), most)
		}
		text := strings.TrimSpace(string(big[f]))
		if last := text[strings.LastIndexAny(text, " \n")+1:]; !strings.Contains(distinct(0, 40000, " ")+" ", " "+last+" ") {
			t.Errorf("field %d: ends in %q, not a whole word", f, last)
		}
	}
	real := hostile(12)
	if want := distinct(0, 12, " "); string(real[fieldTitle]) != want || string(real[fieldHeadings]) != strings.ReplaceAll(want, " ", "\n")+"\n" {
		t.Errorf("a real-sized concept: title %q, headings %q", real[fieldTitle], real[fieldHeadings])
	}
}

// TestPairCap: one concept's headings give the pair index at most maxPairs pairs, however many
// distinct words they hold.
func TestPairCap(t *testing.T) {
	pairs := func(words int) int {
		// One heading line of distinct words (well under maxHeadings).
		si, _ := indexDocs([]*doc{{id: "c", body: []byte("# " + distinct(0, words, " ") + "\n")}}, nil)
		return si.pair.numTerms()
	}
	a, b := pairs(3000), pairs(6000)
	if a > maxPairs || b != a {
		t.Errorf("pair terms: %d of 3,000 words, %d of 6,000: want the same, at most %d", a, b, maxPairs)
	}
	// Below the cap, every pair.
	if n := pairs(100); n != 99 {
		t.Errorf("pair terms of 100 words: %d, want 99", n)
	}
}

// TestStemCacheCap: the stems a pair builder caches are bounded, however many distinct words.
func TestStemCacheCap(t *testing.T) {
	c := stems{}
	text := []byte(distinct(0, maxStemCache+5000, "\n"))
	eachPair(text, c, func([]byte) {})
	if len(c) > maxStemCache {
		t.Errorf("%d stems cached, want at most %d", len(c), maxStemCache)
	}
}

// TestDocTermsCap: one concept gives the word index at most caps.docTerms distinct words, however
// many its body holds; the words it had before the cap are still found, and a note says so.
func TestDocTermsCap(t *testing.T) {
	terms := func(words int) (int, []string, *searchIndex) {
		si, notes := indexDocs([]*doc{{id: "c", body: []byte(distinct(0, words, " "))}}, nil)
		return si.exact.numTerms(), notes, si
	}
	a, _, _ := terms(caps.docTerms + 1000)
	b, notes, si := terms(2*caps.docTerms + 1000)
	if a > caps.docTerms+1 || b != a { // +1: the path's word
		t.Errorf("distinct words: %d of %d, %d of %d: want the same, at most %d", a, caps.docTerms+1000, b, 2*caps.docTerms+1000, caps.docTerms+1)
	}
	if hits := si.search([]string{distinct(7, 1, "")}, 1, nil); len(hits) != 1 {
		t.Errorf("a word before the cap: %+v, want found", hits)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], fmt.Sprintf("concepts with more than %d distinct words: 1;", caps.docTerms)) {
		t.Errorf("notes %q, want one saying a concept was cut", notes)
	}
}

// TestCamelPartsCap: the parts of camel-case words (camelParts) are terms like any other, under
// the same cap of a concept's distinct terms: a body of camel-case words, each of distinct parts,
// gives the index no more than a body of plain words.
func TestCamelPartsCap(t *testing.T) {
	terms := func(words int) int {
		var b strings.Builder
		for i, w := range strings.Fields(distinct(0, 2*words, " "))[:words] {
			// Two distinct words in one, each with a capital: QaaQbc has the parts qaa and qbc.
			b.WriteString("Q" + w[1:] + "Q" + distinct(words+i, 1, "")[1:] + " ")
		}
		si, _ := indexDocs([]*doc{{id: "c", body: []byte(b.String())}}, nil)
		return si.exact.numTerms()
	}
	if n := terms(10); n != 31 { // each word and its two parts, and the path's word
		t.Errorf("10 camel-case words: %d terms, want 31", n)
	}
	a, b := terms(caps.docTerms+1000), terms(2*caps.docTerms+1000)
	if a > caps.docTerms+1 || b != a { // +1: the path's word
		t.Errorf("distinct terms: %d, %d: want the same, at most %d", a, b, caps.docTerms+1)
	}
}

// TestIndexTermsCap: the word index holds at most caps.terms distinct words, read by one goroutine
// or two; a note says when the cap was met.
func TestIndexTermsCap(t *testing.T) {
	withCaps(t, indexCaps{docTerms: 1 << 16, terms: 1000, postings: 1 << 24})
	terms := func(docs int) (int, []string) {
		var ds []*doc
		for i := range docs {
			ds = append(ds, &doc{id: fmt.Sprintf("c%d", i), body: []byte(distinct(100*i, 100, " "))})
		}
		si, notes := indexDocs(ds, nil)
		return si.exact.numTerms(), notes
	}
	for _, par := range []int{1000, 10} {
		n := parallelIndex
		parallelIndex = par
		a, _ := terms(50)
		b, notes := terms(100)
		parallelIndex = n
		if a > 1000 || b != a {
			t.Errorf("parallel from %d: %d distinct words of 50 concepts, %d of 100: want the same, at most 1000", par, a, b)
		}
		if !strings.Contains(strings.Join(notes, "\n"), "more than 1000 distinct words") {
			t.Errorf("parallel from %d: notes %q, want the cap of words", par, notes)
		}
	}
}

// TestIndexPostingsCap: the word index holds at most caps.postings postings, read by one goroutine
// or two; a note says when the cap was met.
func TestIndexPostingsCap(t *testing.T) {
	withCaps(t, indexCaps{docTerms: 1 << 16, terms: 1 << 20, postings: 2000})
	posts := func(docs int) (int, []string) {
		var ds []*doc
		for range docs {
			ds = append(ds, &doc{id: "c", body: []byte(distinct(0, 100, " "))})
		}
		si, notes := indexDocs(ds, nil)
		return len(si.exact.posts), notes
	}
	for _, par := range []int{1000, 10} {
		n := parallelIndex
		parallelIndex = par
		a, _ := posts(50)
		b, notes := posts(100)
		parallelIndex = n
		if a > 2000 || b != a {
			t.Errorf("parallel from %d: %d postings of 50 concepts, %d of 100: want the same, at most 2000", par, a, b)
		}
		if !strings.Contains(strings.Join(notes, "\n"), "index of words is full") {
			t.Errorf("parallel from %d: notes %q, want the cap of postings", par, notes)
		}
	}
}
