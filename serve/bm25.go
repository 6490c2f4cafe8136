package serve

import (
	"math"
	"slices"
	"strings"
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

// indexBuilder counts each document's words as it is added, keeping only the counts (not the
// words), then weighs them once every document's field lengths are known.
type indexBuilder struct {
	lens  [][numFields]int32
	raw   map[string][]rawPosting
	count map[string]*[numFields]int32 // scratch for one document
}

type rawPosting struct {
	doc int32
	tf  [numFields]int32
}

func (b *indexBuilder) add(fields [numFields][]string) int {
	if b.raw == nil {
		b.raw = map[string][]rawPosting{}
		b.count = map[string]*[numFields]int32{}
	}
	doc := int32(len(b.lens))
	var lens [numFields]int32
	clear(b.count)
	for f := range numFields {
		lens[f] = int32(len(fields[f]))
		for _, w := range fields[f] {
			c := b.count[w]
			if c == nil {
				c = &[numFields]int32{}
				b.count[w] = c
			}
			c[f]++
		}
	}
	for w, c := range b.count {
		ps, ok := b.raw[w]
		if !ok {
			// The word is a slice of the document's text: a key of its own lets that text go.
			w = strings.Clone(w)
		}
		b.raw[w] = append(ps, rawPosting{doc: doc, tf: *c})
	}
	b.lens = append(b.lens, lens)
	return int(doc)
}

func (b *indexBuilder) build() *index {
	x := &index{postings: make(map[string][]posting, len(b.raw)), n: len(b.lens)}
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
	for w, rps := range b.raw {
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
		x.postings[w] = ps
	}
	b.raw, b.lens, b.count = nil, nil, nil
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
