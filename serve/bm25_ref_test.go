package serve

// The index as it was before it was made cheap to build (a Go map lookup per word, a slice of
// postings per term): the reference the new one is compared with (bm25_diff_test.go). Kept as it
// was, only renamed, but for the camel-case parts counted since.

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// oldIndex is the old index: a map from word to postings.
type oldIndex struct {
	postings map[string][]posting
	n        int
}

// oldIndexBuilder counts each document's words as it reads them, keeping only counts: every distinct
// word gets a number the first time it is seen (its text allocated once), and a document's counts
// are dense slots cleared after the document. Once every document's field lengths are known, build
// weighs the counts.
type oldIndexBuilder struct {
	terms   map[string]int32
	words   []string
	raw     [][]oldRawPosting // by term number
	count   [][numFields]int32
	touched []int32
	lens    [][numFields]int32
	buf     []byte
}

type oldRawPosting struct {
	doc int32
	tf  [numFields]int32
}

// addField reads the words of text (as tokens splits them) into field f of the current document and
// returns how many there were.
func (b *oldIndexBuilder) addField(f int, text []byte) int32 {
	if b.terms == nil {
		b.terms = map[string]int32{}
	}
	var n int32
	b.buf = b.buf[:0]
	ws := 0 // where the current word starts
	for i := 0; i <= len(text); {
		if len(b.buf) == 0 {
			ws = i
		}
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
				// Since the old index: a camel-case word's parts (camelParts) count too.
				camelParts(text[ws:i], func(from, to int) {
					if to-from >= 2 {
						b.buf = append(b.buf[:0], strings.ToLower(string(text[ws+from:ws+to]))...)
						b.countWord(f)
					}
				})
				b.buf = b.buf[:0]
			}
		}
		i += size
	}
	return n
}

func (b *oldIndexBuilder) countWord(f int) {
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
func (b *oldIndexBuilder) endDoc(lens [numFields]int32) {
	doc := int32(len(b.lens))
	for _, id := range b.touched {
		b.raw[id] = append(b.raw[id], oldRawPosting{doc: doc, tf: b.count[id]})
		b.count[id] = [numFields]int32{}
	}
	b.touched = b.touched[:0]
	b.lens = append(b.lens, lens)
}

func (b *oldIndexBuilder) build() *oldIndex {
	x := &oldIndex{postings: make(map[string][]posting, len(b.words)), n: len(b.lens)}
	// Each field's average length over the documents that have it (BM25F).
	var avg, have [numFields]float64
	for _, l := range b.lens {
		for f := range numFields {
			if l[f] > 0 {
				avg[f] += float64(l[f])
				have[f]++
			}
		}
	}
	for f := range numFields {
		avg[f] /= math.Max(1, have[f])
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
	*b = oldIndexBuilder{}
	return x
}

var oldScratchPool sync.Pool

// search scores every document holding a query word and returns the best k that keep accepts,
// highest score first (ties: lower document number, which is ID order).
func (x *oldIndex) search(query []string, k int, keep func(doc int) bool) []hit {
	sc, _ := oldScratchPool.Get().(*scratch)
	if sc == nil || len(sc.scores) < x.n {
		sc = &scratch{scores: make([]float64, x.n)}
	}
	defer func() {
		for _, d := range sc.touched {
			sc.scores[d] = 0
		}
		sc.touched = sc.touched[:0]
		oldScratchPool.Put(sc)
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
