package serve

import (
	"math"
	"slices"
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

// posting is one document holding a term: its weighted, length-normalised term frequency.
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

// indexBuilder gathers documents' fields, then computes the postings.
type indexBuilder struct {
	docs [][numFields][]string
}

func (b *indexBuilder) add(fields [numFields][]string) int {
	b.docs = append(b.docs, fields)
	return len(b.docs) - 1
}

func (b *indexBuilder) build() *index {
	x := &index{postings: map[string][]posting{}, n: len(b.docs)}
	var avg [numFields]float64
	for _, d := range b.docs {
		for f := range numFields {
			avg[f] += float64(len(d[f]))
		}
	}
	for f := range numFields {
		avg[f] /= math.Max(1, float64(len(b.docs)))
		if avg[f] == 0 {
			avg[f] = 1
		}
	}
	tf := map[string]*[numFields]int{}
	for i, d := range b.docs {
		clear(tf)
		for f := range numFields {
			for _, w := range d[f] {
				c := tf[w]
				if c == nil {
					c = &[numFields]int{}
					tf[w] = c
				}
				c[f]++
			}
		}
		for w, c := range tf {
			var sum float64
			for f := range numFields {
				if c[f] == 0 {
					continue
				}
				norm := 1 - fieldB[f] + fieldB[f]*float64(len(d[f]))/avg[f]
				sum += fieldWeights[f] * float64(c[f]) / norm
			}
			x.postings[w] = append(x.postings[w], posting{doc: int32(i), tf: float32(sum)})
		}
	}
	b.docs = nil
	return x
}

// hit is a scored document.
type hit struct {
	doc   int
	score float64
}

// search scores every document holding a query word and returns the best k that keep accepts,
// highest score first (ties: lower document number, which is ID order).
func (x *index) search(query []string, k int, keep func(doc int) bool) []hit {
	seen := map[string]bool{}
	scores := map[int32]float64{}
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
			t := float64(p.tf)
			scores[p.doc] += idf * t * (bm25K1 + 1) / (bm25K1 + t)
		}
	}
	hits := make([]hit, 0, min(len(scores), 256))
	for d, s := range scores {
		if keep == nil || keep(int(d)) {
			hits = append(hits, hit{doc: int(d), score: s})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return a.doc - b.doc
	})
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits
}
