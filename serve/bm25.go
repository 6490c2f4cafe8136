package serve

import (
	"math"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Field-weighted BM25 (BM25F, Robertson & Zaragoza 2009): each field's term frequency is
// normalised by that field's length, weighted, and summed before the usual saturation, so a word in
// the title counts more than the same word in the body without a title match being counted twice.

// The fields, in the order of fieldWeights and fieldB.
const (
	fieldTitle = iota
	fieldDescription
	fieldTags
	fieldBody
	numFields
)

var (
	fieldWeights = [numFields]float64{fieldTitle: 4, fieldDescription: 2, fieldTags: 3, fieldBody: 1}
	fieldB       = [numFields]float64{fieldTitle: 0.5, fieldDescription: 0.5, fieldTags: 0.3, fieldBody: 0.75}
)

const bm25K1 = 1.2

// posting is one document holding a term: its weighted, length-normalised term frequency,
// saturated (tf·(k1+1)/(k1+tf)).
type posting struct {
	doc int32
	tf  float32
}

// index is an inverted index over documents numbered 0..n-1.
type index struct {
	postings map[string][]posting
	n        int
}

// tokens splits s into lowercase words: maximal runs of Unicode letters, digits and combining
// marks. Everything else (punctuation, Markdown markup, spaces) separates words.
func tokens(s string, out []string) []string {
	start := -1
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, lower(s[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, lower(s[start:]))
	}
	return out
}

// lower lowercases a word, without allocating when it is already lowercase ASCII.
func lower(w string) string {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return toLower(w)
		}
	}
	return w
}

func toLower(w string) string {
	b := make([]rune, 0, len(w))
	for _, r := range w {
		b = append(b, unicode.ToLower(r))
	}
	return string(b)
}

// indexBuilder counts each document's words as it reads them, keeping only counts: every distinct
// word gets a number the first time it is seen (its text allocated once), and a document's counts
// are dense slots cleared after the document. Once every document's field lengths are known, build
// weighs the counts.
type indexBuilder struct {
	terms   map[string]int32
	words   []string
	raw     [][]rawPosting // by term number
	count   [][numFields]int32
	touched []int32
	lens    [][numFields]int32
	buf     []byte
}

type rawPosting struct {
	doc int32
	tf  [numFields]int32
}

// addField reads the words of text (as tokens splits them) into field f of the current document and
// returns how many there were.
func (b *indexBuilder) addField(f int, text []byte) int32 {
	if b.terms == nil {
		b.terms = map[string]int32{}
	}
	var n int32
	b.buf = b.buf[:0]
	for i := 0; i <= len(text); {
		r, size := rune(' '), 1
		if i < len(text) {
			if c := text[i]; c < utf8.RuneSelf {
				r = rune(c)
			} else {
				r, size = utf8.DecodeRune(text[i:])
			}
		}
		switch {
		case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
			b.buf = append(b.buf, byte(r))
		case 'A' <= r && r <= 'Z':
			b.buf = append(b.buf, byte(r)+'a'-'A')
		case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)):
			b.buf = utf8.AppendRune(b.buf, unicode.ToLower(r))
		default:
			if len(b.buf) > 0 {
				b.countWord(f)
				n++
				b.buf = b.buf[:0]
			}
		}
		i += size
	}
	return n
}

func (b *indexBuilder) countWord(f int) {
	id, ok := b.terms[string(b.buf)] // no allocation for the lookup
	if !ok {
		w := string(b.buf)
		id = int32(len(b.words))
		b.terms[w] = id
		b.words = append(b.words, w)
		b.raw = append(b.raw, nil)
		b.count = append(b.count, [numFields]int32{})
	}
	c := &b.count[id]
	if *c == ([numFields]int32{}) {
		b.touched = append(b.touched, id)
	}
	c[f]++
}

// endDoc closes the current document, whose fields had the given lengths in words.
func (b *indexBuilder) endDoc(lens [numFields]int32) {
	doc := int32(len(b.lens))
	for _, id := range b.touched {
		b.raw[id] = append(b.raw[id], rawPosting{doc: doc, tf: b.count[id]})
		b.count[id] = [numFields]int32{}
	}
	b.touched = b.touched[:0]
	b.lens = append(b.lens, lens)
}

func (b *indexBuilder) build() *index {
	x := &index{postings: make(map[string][]posting, len(b.words)), n: len(b.lens)}
	var avg [numFields]float64
	for _, l := range b.lens {
		for f := range numFields {
			avg[f] += float64(l[f])
		}
	}
	for f := range numFields {
		avg[f] /= math.Max(1, float64(len(b.lens)))
		if avg[f] == 0 {
			avg[f] = 1
		}
	}
	for id, rps := range b.raw {
		ps := make([]posting, len(rps))
		for i, rp := range rps {
			var sum float64
			for f := range numFields {
				if rp.tf[f] == 0 {
					continue
				}
				norm := 1 - fieldB[f] + fieldB[f]*float64(b.lens[rp.doc][f])/avg[f]
				sum += fieldWeights[f] * float64(rp.tf[f]) / norm
			}
			// Saturate once here, so a query only multiplies by the term's idf.
			ps[i] = posting{doc: rp.doc, tf: float32(sum * (bm25K1 + 1) / (bm25K1 + sum))}
		}
		x.postings[b.words[id]] = ps
	}
	*b = indexBuilder{}
	return x
}

// hit is a scored document.
type hit struct {
	doc   int
	score float64
}

// scratch is a query's score accumulator: one slot per document, and the documents touched.
type scratch struct {
	scores  []float64
	touched []int32
}

var scratchPool sync.Pool

// better orders hits: higher score first, then lower document number (ID order).
func better(a, b hit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.doc < b.doc
}

// search scores every document holding a query word and returns the best k that keep accepts,
// highest score first (ties: lower document number, which is ID order).
func (x *index) search(query []string, k int, keep func(doc int) bool) []hit {
	sc, _ := scratchPool.Get().(*scratch)
	if sc == nil || len(sc.scores) < x.n {
		sc = &scratch{scores: make([]float64, x.n)}
	}
	defer func() {
		for _, d := range sc.touched {
			sc.scores[d] = 0
		}
		sc.touched = sc.touched[:0]
		scratchPool.Put(sc)
	}()
	seen := map[string]bool{}
	for _, w := range query {
		if seen[w] {
			continue
		}
		seen[w] = true
		ps := x.postings[w]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (float64(x.n)-df+0.5)/(df+0.5))
		for _, p := range ps {
			if sc.scores[p.doc] == 0 {
				sc.touched = append(sc.touched, p.doc)
			}
			sc.scores[p.doc] += idf * float64(p.tf)
		}
	}
	// The best k in a min-heap whose root is the worst kept hit.
	h := make([]hit, 0, k+1)
	for _, d := range sc.touched {
		c := hit{doc: int(d), score: sc.scores[d]}
		if len(h) == k && !better(c, h[0]) {
			continue
		}
		if keep != nil && !keep(c.doc) {
			continue
		}
		if len(h) < k {
			h = append(h, c)
			up(h, len(h)-1)
		} else {
			h[0] = c
			down(h, 0)
		}
	}
	slices.SortFunc(h, func(a, b hit) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	return h
}

// up and down keep h a heap with the worst hit at the root.
func up(h []hit, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !better(h[p], h[i]) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func down(h []hit, i int) {
	for {
		w := i
		for _, c := range []int{2*i + 1, 2*i + 2} {
			if c < len(h) && better(h[w], h[c]) {
				w = c
			}
		}
		if w == i {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}
