package serve

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// The index reads documents with addField and queries with tokens: both must split and lowercase
// alike, or a word would be indexed under one spelling and searched under another.
func TestTokenisersAgree(t *testing.T) {
	for _, s := range []string{
		"KV-cache: the KV cache, ＫＶ full-width",
		"Ünïcode wörds, naïve café and e\u0301 (a combining accent)",
		"ǅemal İstanbul ΣΊΣΥΦΟΣ",
		"x_y 3.14 #heading [link](a/b.md) `code`",
		"bad \xff bytes\xc3 here",
		"",
		"日本語のテキスト 中文",
		"AnimatePresence useState HTTPServer IcebergCompatV1 getX ZCache café-ScoreBoard",
	} {
		want := tokens(s, nil)
		var b indexBuilder
		n := b.addField(fieldBody, []byte(s))
		got := counted(&b, fieldBody)
		sorted := indexedWords(s)
		if int(n) != len(want) || !slices.Equal(got, sorted) {
			t.Errorf("%q:\n addField %d %q\n tokens   %d, with parts %q", s, n, got, len(want), sorted)
		}
	}
	if got := tokens("KV-Cache ＫＶ", nil); !slices.Equal(got, []string{"kv", "cache", "ｋｖ"}) {
		t.Errorf("tokens: %q", got)
	}
}

// A word in the title counts more than the same word once in a body of the same length; a word in
// no document scores nothing; ties go to the lower document number.
func TestBM25FieldWeights(t *testing.T) {
	var b indexBuilder
	add := func(title, body string) {
		var l [numFields]int32
		l[fieldTitle] = b.addField(fieldTitle, []byte(title))
		l[fieldBody] = b.addField(fieldBody, []byte(body))
		b.endDoc(l)
	}
	add("notes", "paging and the cache") // 0: cache in the body
	add("cache", "paging and the notes") // 1: cache in the title
	add("other", "nothing to see here")  // 2
	add("notes", "paging and the cache") // 3: same as 0
	x := b.build()
	hits := x.search([]string{"cache"}, 10, nil)
	var docs []int
	for _, h := range hits {
		docs = append(docs, h.doc)
	}
	if !slices.Equal(docs, []int{1, 0, 3}) || hits[1].score != hits[2].score {
		t.Errorf("hits %+v, want doc 1, then 0 and 3 tied", hits)
	}
	if h := x.search([]string{"absent"}, 10, nil); len(h) != 0 {
		t.Errorf("absent word: %+v", h)
	}
	if h := x.search([]string{"cache"}, 1, func(d int) bool { return d != 1 }); len(h) != 1 || h[0].doc != 0 {
		t.Errorf("filtered k=1: %+v", h)
	}
}

// TestBM25FFieldAverageOverDocsWithField: a field few documents have (a description) is normalised
// against its average length in the documents that have it, so the one description of one word,
// of exactly its average length, counts its full weight. Averaged over every document, it looked
// ten times its average length and counted 2/11 of it: the one concept whose description holds
// the word ranked below every concept with the word once in a body.
func TestBM25FFieldAverageOverDocsWithField(t *testing.T) {
	var b indexBuilder
	filler := strings.Repeat("alpha beta gamma delta ", 12)
	add := func(desc, body string) {
		var l [numFields]int32
		l[fieldDescription] = b.addField(fieldDescription, []byte(desc))
		l[fieldBody] = b.addField(fieldBody, []byte(body))
		b.endDoc(l)
	}
	add("zebra", filler) // 0: the word only in its description
	for range 9 {
		add("", filler+"zebra") // 1-9: the word once in a body
	}
	x := b.build()
	ps := x.postings("zebra")
	w := fieldWeights[fieldDescription]
	if want := float32(w * (bm25K1 + 1) / (bm25K1 + w)); len(ps) != 10 || ps[0].doc != 0 || ps[0].tf != want {
		t.Errorf("postings %+v, want document 0 first with weight %v", ps, want)
	}
}

// TestSearchStems: a query word finds other forms of it (its Snowball stem), and a concept with
// the word as asked ranks above one with another form only.
func TestSearchStems(t *testing.T) {
	var b indexBuilder
	for _, body := range []string{"the caches were warm", "nothing here", "the cache is warm"} {
		var l [numFields]int32
		l[fieldBody] = b.addField(fieldBody, []byte(body))
		b.endDoc(l)
	}
	x := b.buildSearch()
	hits := x.search([]string{"cache"}, 10, nil)
	if len(hits) != 2 || hits[0].doc != 2 || hits[1].doc != 0 {
		t.Errorf("cache: %+v, want document 2 (exact), then 0 (stem)", hits)
	}
	hits = x.search([]string{"caching"}, 10, nil)
	if len(hits) != 2 {
		t.Errorf("caching: %+v, want both forms found by stem", hits)
	}
}

// A word asked in a form no concept writes ("animate" where concepts say "animation") scores what
// the form they write would, asked: by its stem alone it would weigh a third of any other word of
// the query that a concept writes as asked.
func TestSearchFormNoConceptWrites(t *testing.T) {
	var b indexBuilder
	for _, body := range []string{"animation of lists", "nothing here", "lists animation animation"} {
		var l [numFields]int32
		l[fieldBody] = b.addField(fieldBody, []byte(body))
		b.endDoc(l)
	}
	x := b.buildSearch()
	asked, written := x.search([]string{"animate"}, 10, nil), x.search([]string{"animation"}, 10, nil)
	// The same up to rounding: 1.5 × idf × tf against idf × tf + 0.5 × idf × tf.
	same := len(asked) == 2 && len(written) == 2
	for i := range min(len(asked), len(written)) {
		same = same && asked[i].doc == written[i].doc && math.Abs(asked[i].score-written[i].score) <= 1e-12*written[i].score
	}
	if !same {
		t.Errorf("animate: %+v; animation: %+v, want the same", asked, written)
	}
}

// counted lists the words counted in field f of the document being read, each as many times as it
// was counted, sorted.
func counted(b *indexBuilder, f int) []string {
	var out []string
	for t := range b.terms {
		for range b.countOf(int32(t))[f] {
			out = append(out, string(b.term(int32(t))))
		}
	}
	slices.Sort(out)
	return out
}

// TestSearchIndexSameInHalves: the stem index of a bundle read by two goroutines (halves merged)
// answers every query as the one read by one.
func TestSearchIndexSameInHalves(t *testing.T) {
	s, _ := newServer(t, "testdata/bundle", 0)
	snap := s.snap.Load()
	docs := snap.docs[:snap.concepts]
	one, _ := indexDocs(docs, snap.anchors())
	n := parallelIndex
	parallelIndex = 2
	two, _ := indexDocs(docs, snap.anchors())
	parallelIndex = n
	for _, q := range []string{"cache", "caching attention", "pages paged", "keys values", "wörds", "memory terms"} {
		a, b := one.search(tokens(q, nil), 10, nil), two.search(tokens(q, nil), 10, nil)
		if !slices.Equal(a, b) || len(a) == 0 {
			t.Errorf("%q: one goroutine %+v, two %+v", q, a, b)
		}
	}
}
