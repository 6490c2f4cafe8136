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

// index is an inverted index over documents numbered 0..n-1. Every term has a number; the postings
// of term t are posts[start[t]:start[t+1]], in document order, all in one slice.
type index struct {
	terms map[string]int32
	start []int32
	posts []posting
	n     int
}

// postings returns the postings of word w (nil when no document holds it).
func (x *index) postings(w string) []posting {
	t, ok := x.terms[w]
	if !ok {
		return nil
	}
	return x.posts[x.start[t]:x.start[t+1]]
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

// indexBuilder counts each document's words as it reads them, keeping only counts. A word is
// lowercased into a reused buffer and hashed as it is read; its term number is found in an
// open-addressing table over the bytes of the terms met so far (one arena), so nothing is allocated
// per word, only per new term. A document's counts are dense slots by term number, cleared after the
// document; its postings go to one flat slice in document order. Once every document's field
// lengths are known, build weighs the counts and sorts the postings by term (a counting sort, which
// keeps document order within a term).
type indexBuilder struct {
	slots   []int32  // term number + 1 by hash slot, 0 for empty; len is a power of two
	hashes  []uint32 // by term number
	arena   []byte   // every term's bytes, one after the other
	ends    []int32  // term t is arena[ends[t-1]:ends[t]] (from 0 for t = 0)
	count   [][numFields]int32
	touched []int32
	flat    []rawPosting
	lens    [][numFields]int32
	buf     []byte
}

type rawPosting struct {
	term, doc int32
	tf        [numFields]int32
}

// wordByte maps an ASCII byte to itself lowercased when it is part of a word (a letter or digit),
// and to 0 when it separates words.
var wordByte = func() (t [utf8.RuneSelf]byte) {
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c
	}
	for c := byte('a'); c <= 'z'; c++ {
		t[c] = c
		t[c-'a'+'A'] = c
	}
	return t
}()

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// addField reads the words of text (as tokens splits them) into field f of the current document and
// returns how many there were.
func (b *indexBuilder) addField(f int, text []byte) int32 {
	var n int32
	buf := b.buf[:0]
	h := uint32(fnvOffset)
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			i++
			if l := wordByte[c]; l != 0 {
				buf = append(buf, l)
				h = (h ^ uint32(l)) * fnvPrime
				continue
			}
		} else {
			r, size := utf8.DecodeRune(text[i:])
			i += size
			if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
				from := len(buf)
				buf = utf8.AppendRune(buf, unicode.ToLower(r))
				for _, x := range buf[from:] {
					h = (h ^ uint32(x)) * fnvPrime
				}
				continue
			}
		}
		if len(buf) > 0 {
			b.countWord(f, buf, h)
			n++
			buf = buf[:0]
			h = fnvOffset
		}
	}
	if len(buf) > 0 {
		b.countWord(f, buf, h)
		n++
	}
	b.buf = buf[:0]
	return n
}

// countWord counts word w, whose hash is h, in field f of the current document.
func (b *indexBuilder) countWord(f int, w []byte, h uint32) {
	if 2*len(b.hashes) >= len(b.slots) {
		b.grow()
	}
	mask := uint32(len(b.slots) - 1)
	i := h & mask
	var id int32
	for {
		s := b.slots[i]
		if s == 0 {
			id = b.newTerm(w, h)
			b.slots[i] = id + 1
			break
		}
		if t := s - 1; b.hashes[t] == h && string(b.term(t)) == string(w) {
			id = t
			break
		}
		i = (i + 1) & mask
	}
	c := &b.count[id]
	if *c == ([numFields]int32{}) {
		b.touched = append(b.touched, id)
	}
	c[f]++
}

func (b *indexBuilder) term(t int32) []byte {
	from := int32(0)
	if t > 0 {
		from = b.ends[t-1]
	}
	return b.arena[from:b.ends[t]]
}

func (b *indexBuilder) newTerm(w []byte, h uint32) int32 {
	id := int32(len(b.hashes))
	b.hashes = append(b.hashes, h)
	b.arena = append(b.arena, w...)
	b.ends = append(b.ends, int32(len(b.arena)))
	b.count = append(b.count, [numFields]int32{})
	return id
}

// grow doubles the hash table (at least 1,024 slots) and places every term again.
func (b *indexBuilder) grow() {
	b.slots = make([]int32, max(1024, 2*len(b.slots)))
	mask := uint32(len(b.slots) - 1)
	for t, h := range b.hashes {
		i := h & mask
		for b.slots[i] != 0 {
			i = (i + 1) & mask
		}
		b.slots[i] = int32(t) + 1
	}
}

// endDoc closes the current document, whose fields had the given lengths in words.
func (b *indexBuilder) endDoc(lens [numFields]int32) {
	doc := int32(len(b.lens))
	for _, id := range b.touched {
		b.flat = append(b.flat, rawPosting{term: id, doc: doc, tf: b.count[id]})
		b.count[id] = [numFields]int32{}
	}
	b.touched = b.touched[:0]
	b.lens = append(b.lens, lens)
}

func (b *indexBuilder) build() *index {
	nt := len(b.hashes)
	x := &index{terms: make(map[string]int32, nt), start: make([]int32, nt+1), posts: make([]posting, len(b.flat)), n: len(b.lens)}
	// One string holds every term; the map's keys are slices of it.
	all := string(b.arena)
	from := int32(0)
	for t, end := range b.ends {
		x.terms[all[from:end]] = int32(t)
		from = end
	}
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
	for _, rp := range b.flat {
		x.start[rp.term+1]++
	}
	for t := range nt {
		x.start[t+1] += x.start[t]
	}
	next := slices.Clone(x.start[:nt])
	for _, rp := range b.flat {
		var sum float64
		for f := range numFields {
			if rp.tf[f] == 0 {
				continue
			}
			norm := 1 - fieldB[f] + fieldB[f]*float64(b.lens[rp.doc][f])/avg[f]
			sum += fieldWeights[f] * float64(rp.tf[f]) / norm
		}
		// Saturate once here, so a query only multiplies by the term's idf.
		x.posts[next[rp.term]] = posting{doc: rp.doc, tf: float32(sum * (bm25K1 + 1) / (bm25K1 + sum))}
		next[rp.term]++
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
		ps := x.postings(w)
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
