package serve

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Field-weighted BM25 (BM25F, Robertson & Zaragoza 2009): each field's term frequency is
// normalised by that field's length against the field's average length (over the documents that
// have the field: a field most documents lack, such as a description, would otherwise look long
// wherever it is present, and the one concept whose description holds a word would rank last),
// weighted, and summed before the usual saturation, so a word in the title counts more than the
// same word in the body without a title match being counted twice.
//
// The fields are what a bundle gives besides its text: the title, the body's headings, the
// description, the tags, the anchor text of the links and index entries that point at the concept
// (what other authors call it), the words of its path (its ID), the body, and the rest of the
// frontmatter (the type, the sources' titles, the resource, what else the producer wrote). Each word
// is indexed as written and, in a second index, by its English Snowball stem: a query word scores
// its exact matches in full and its stem's matches at stemWeight, so "caching" finds "cache" and
// "cached", and a concept with the word as asked ranks above one with only another form of it.
// When no concept has the word as asked, there is no such concept to prefer: its stem's matches
// count as the bundle's own spelling asked would (1 + stemWeight), not at a third of the words
// asked as written ("animate" where the bundle says "animation").
// Both weigh a word by how rare it is in any form (its stem's document frequency): "events", written
// so in 5 concepts of a bundle where 80 say "event", is not a rare word.
//
// A third index holds the pairs of adjacent words (stems, stop words left out) of the short fields,
// where two words side by side are mostly a name ("gross margin", "tag wiki"): a query's adjacent
// pairs score there at pairWeight, so a concept named by the words asked together ranks above one
// that has them apart.

// The fields, in the order of fieldWeights and fieldB.
const (
	fieldTitle = iota
	fieldHeadings
	fieldDescription
	fieldTags
	fieldAnchor
	fieldPath
	fieldBody
	fieldMeta
	numFields
)

// The weights and b's were chosen on the relevance questions of eleven bundles (docs/serve.md,
// Relevance), each change kept only when the value chosen on ten bundles also helped the eleventh,
// left out, for most of the eleven: the tags weigh little (a tag is a category, shared by many
// concepts, that tells few apart), the anchor text much (what other concepts call this one).
var (
	fieldWeights = [numFields]float64{fieldTitle: 4, fieldHeadings: 2, fieldDescription: 1, fieldTags: 0.25, fieldAnchor: 6, fieldPath: 2, fieldBody: 2, fieldMeta: 0.5}
	fieldB       = [numFields]float64{fieldTitle: 0.5, fieldHeadings: 0.5, fieldDescription: 0.5, fieldTags: 0.3, fieldAnchor: 0.6, fieldPath: 0.3, fieldBody: 0.75, fieldMeta: 0.5}
)

// stemWeight is what a match by stem alone counts for, against 1 for an exact match.
const stemWeight = 0.5

// pairWeight is what a query's pair of adjacent words found side by side in a short field counts
// for, against 1 for an exact word.
const pairWeight = 1.0

// bm25K1 is how slowly a term's weighted frequency saturates. The fields' weights add up before
// saturation, so one word of a body (weight 2) already counts for 2: with the usual 1.2 a word
// anywhere in a concept is worth nearly as much as the same word in its title, path and index
// entries, and the fields tell the concepts apart only weakly. With 6 they do: among near-duplicate
// concepts that all have a question's words somewhere, the one that has them in its title and
// anchor text, or often in its body, ranks first (on the relevance questions 6 was the best of 1.2
// to 6 on every ten bundles of eleven, and it helped the eleventh on most).
const bm25K1 = 6.0

// posting is one document holding a term: its weighted, length-normalised term frequency,
// saturated (tf·(k1+1)/(k1+tf)).
type posting struct {
	doc int32
	tf  float32
}

// index is an inverted index over documents numbered 0..n-1. Every term has a number; the postings
// of term t are posts[start[t]:start[t+1]], in document order, all in one slice. Its name is
// names[offs[t]:offs[t+1]], all names in one string; table finds a term by its name (open
// addressing: term+1 by slot, 0 empty). About 20 bytes a term besides its name and postings,
// where a Go map of strings took some 60, and no allocation per term.
type index struct {
	names string
	offs  []int32
	table []int32
	start []int32
	posts []posting
	n     int
}

// numTerms is how many terms x has.
func (x *index) numTerms() int { return len(x.start) - 1 }

// term returns the number of term w (-1: none).
func (x *index) term(w string) int32 {
	if len(x.table) == 0 {
		return -1
	}
	mask := uint64(len(x.table) - 1)
	for i := maphash.String(wordSeed, w) & mask; ; i = (i + 1) & mask {
		t := x.table[i] - 1
		if t < 0 {
			return -1
		}
		if x.names[x.offs[t]:x.offs[t+1]] == w {
			return t
		}
	}
}

// postings returns the postings of word w (nil when no document holds it).
func (x *index) postings(w string) []posting {
	t := x.term(w)
	if t < 0 {
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

// indexBuilder counts each document's words as it reads them, keeping only counts. A word made of
// lowercase ASCII letters and digits (most words) is looked up where it lies in the text; any other
// is lowercased into a reused buffer first. Its term number is found in an open-addressing table:
// a word of at most 8 bytes (most words) is its own integer key, a longer one is hashed and
// compared with the bytes of the terms met so far (one arena). Nothing is allocated per word, only
// per new term. A document's counts are a list in the order its terms are met, each term's slot
// (4 bytes a term, where a term's counts in every field took 32) saying where; cleared after the
// document, its postings go to a flat list of fixed-size chunks (never copied as it grows) in document order.
// Once every document's field lengths are known, build weighs the counts and sorts the postings by
// term (a counting sort, which keeps document order within a term).
type indexBuilder struct {
	short   []shortSlot // words of at most 8 bytes, by their key (shortTerm)
	nshort  int
	slots   []uint64 // longer words: hash<<32 | term number + 1, by hash slot; 0 is empty
	nlong   int
	terms   int
	arena   []byte             // every term's bytes, one after the other
	offs    []int32            // term t is arena[offs[t]:offs[t+1]]
	slot    []int32            // by term: 1 + its place in touched while the current document holds it, else 0
	touched []int32            // the current document's terms, in the order met
	counts  [][numFields]int32 // by place in touched: the term's count in each field
	flat    [][]rawPosting     // chunks of postingChunk
	lens    [][numFields]int32
	buf     []byte
	pbuf    []byte // a camel-case part, lowercased
	bodyBuf []byte // a body without its citation markers and link destinations (bodyWords)

	caps   indexCaps // zero: the package's (caps)
	posts  int       // postings written by endDoc so far
	docCut bool      // the current document has met the cap of its distinct terms
	cut    cutCounts // what the caps left out
}

// indexCaps bound what an index keeps, whatever the bundle holds: the distinct terms of one
// document, the distinct terms of the index, its postings. A bundle's words are a stranger's: one
// file of distinct words (8 MiB, a million terms) or a hundred thousand concepts of them would
// otherwise cost hundreds of bytes of memory per word while the index is built. A word past a cap
// is left out of the index only: the concept is still read whole, and its other words still found.
type indexCaps struct {
	docTerms, terms, postings int
}

// caps are the limits every index is built with (a variable for tests). On the real bundles at
// hand none is near: the largest (5,677 concepts, 47 MB) has at most 2,917 distinct terms in a
// concept, 37,761 in all (with the parts of camel-case words) and 1.3 million postings. At the index caps the build holds about 1 GB.
var caps = indexCaps{docTerms: 1 << 16, terms: 1 << 20, postings: 1 << 24}

// cutCounts is what the caps left out of an index: the documents that had more distinct terms than
// one may, and whether the index reached its cap of terms or of postings.
type cutCounts struct {
	docs            int
	terms, postings bool
}

func (c *cutCounts) add(o cutCounts) {
	c.docs += o.docs
	c.terms = c.terms || o.terms
	c.postings = c.postings || o.postings
}

// limits returns b's caps (the package's when it was given none).
func (b *indexBuilder) limits() indexCaps {
	if b.caps == (indexCaps{}) {
		return caps
	}
	return b.caps
}

type rawPosting struct {
	term, doc int32
	tf        [numFields]int32
}

const postingChunk = 1 << 14

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

// isWordRune reports whether r, not ASCII, is part of a word (as tokens splits them).
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// addField reads the words of text (as tokens splits them) into field f of the current document and
// returns how many there were.
func (b *indexBuilder) addField(f int, text []byte) int32 {
	var n int32
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf && wordByte[c] == 0 {
			i++
			continue
		}
		// A word may start at i. Lowercase ASCII letters and digits are the word as written.
		start := i
		for i+8 <= len(text) {
			n := lowerRun(binary.LittleEndian.Uint64(text[i:]))
			i += n
			if n < 8 {
				break
			}
		}
		for i < len(text) {
			c := text[i]
			if c >= utf8.RuneSelf || c == 0 || wordByte[c] != c { // NUL: wordByte[0] is 0 too
				break
			}
			i++
		}
		w := text[start:i]
		written := false // w is the word lowercased into buf
		if i < len(text) && (text[i] >= utf8.RuneSelf || wordByte[text[i]] != 0) {
			// Capitals or a letter that is not ASCII: lowercase the whole word into buf.
			buf := b.buf[:0]
			for i = start; i < len(text); {
				c := text[i]
				if c < utf8.RuneSelf {
					l := wordByte[c]
					if l == 0 {
						break
					}
					buf = append(buf, l)
					i++
					continue
				}
				r, size := utf8.DecodeRune(text[i:])
				if !isWordRune(r) {
					break
				}
				buf = utf8.AppendRune(buf, unicode.ToLower(r))
				i += size
			}
			b.buf = buf
			w = buf
			written = true
			if len(w) == 0 {
				// Not a word after all: a separator that is not ASCII.
				_, size := utf8.DecodeRune(text[i:])
				i += size
				continue
			}
		}
		b.countWord(f, w)
		if written {
			// Written with capitals: a word in camel case (AnimatePresence) is its parts too.
			b.countParts(f, text[start:i])
		}
		n++
	}
	return n
}

// maxPartsWord is the longest word whose camel-case parts are counted: an identifier is rarely
// longer, and a word's parts are as many as its capitals.
const maxPartsWord = 64

// camelParts calls each with the bounds of every part of an ASCII word written in camel case, in
// order: a capital after a lowercase letter starts a part (useState: use, State; DynamoDB: Dynamo,
// DB; getHTTPResponse: get, HTTPResponse). A run of capitals is not cut (HTTPServer, MLflow: where
// the acronym ends is a guess), nor is a capital after a digit (a timestamp's 19T10). A word with
// no such capital (lowercase, all capitals, one capital first), a word with a byte that is not an
// ASCII letter or digit, or one longer than maxPartsWord, has no parts: each is not called.
func camelParts(w []byte, each func(from, to int)) {
	if len(w) > maxPartsWord {
		return
	}
	up := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	low := func(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
	for _, c := range w {
		if !up(c) && !low(c) {
			return
		}
	}
	from := 0
	for j := 1; j < len(w); j++ {
		if up(w[j]) && 'a' <= w[j-1] && w[j-1] <= 'z' {
			each(from, j)
			from = j
		}
	}
	if from > 0 {
		each(from, len(w))
	}
}

// countParts counts in field f, lowercased, the camel-case parts of the word w as written (of
// two bytes or more; camelParts). They are counted as words of the field, not in its length.
func (b *indexBuilder) countParts(f int, w []byte) {
	camelParts(w, func(from, to int) {
		if to-from < 2 {
			return
		}
		p := b.pbuf[:0]
		for _, c := range w[from:to] {
			p = append(p, wordByte[c])
		}
		b.pbuf = p
		b.countWord(f, p)
	})
}

// lowerRun returns how many of the 8 bytes of x (the first in the low byte) are, from the first,
// lowercase ASCII letters or digits: 8 bytes compared at once (SWAR).
func lowerRun(x uint64) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	y := x &^ high // no byte over 0x7f: the sums below never carry into the next byte
	// A byte b is in [lo, hi] when b+(0x80-lo) has its high bit set and b+(0x7f-hi) has not.
	lower := (y + ones*(0x80-'a')) &^ (y + ones*(0x7f-'z'))
	digit := (y + ones*(0x80-'0')) &^ (y + ones*(0x7f-'9'))
	word := (lower | digit) &^ x & high
	return bits.TrailingZeros64(^word&high) / 8
}

// The tables' hashes are keyed per process. Bound: the bundle's words are a stranger's, and with a
// fixed hash they could be chosen to fall in one run of slots, making each insertion probe every
// earlier one (quadratic in the number of distinct words). Which slot a term takes never shows in
// what the index answers: terms are numbered in the order they are met.
var (
	wordSeed  = maphash.MakeSeed()
	shortMult = rand.Uint64() | 1 // an odd multiplier: multiply-shift hashing of short words
)

// hashWord hashes a word longer than 8 bytes.
func hashWord(w []byte) uint32 { return uint32(maphash.Bytes(wordSeed, w) >> 32) }

// shortSlotOf is the slot of a short word's key in a table of 1<<bits slots: the top bits of the
// key times a random odd number (Dietzfelbinger's multiply-shift).
func shortSlotOf(key uint64, bits int) uint64 { return key * shortMult >> (64 - bits) }

// countWord counts word w in field f of the current document, unless a cap (indexCaps) leaves it
// out: a term new to the index once it holds as many as it may, a term new to the document once
// the document holds as many as it may or the index as many postings as it may.
func (b *indexBuilder) countWord(f int, w []byte) {
	lim := b.limits()
	docFull := len(b.touched) >= lim.docTerms
	// A term new to the index is new to the document: not numbered when either is full.
	add := b.terms < lim.terms && !docFull
	var id int32
	if len(w) <= 8 {
		id = b.shortTerm(w, add)
	} else {
		id = b.longTerm(w, add)
	}
	if id < 0 || b.slot[id] == 0 {
		switch {
		case docFull:
			if !b.docCut {
				b.docCut = true
				b.cut.docs++
			}
			return
		case id < 0:
			b.cut.terms = true
			return
		case b.posts+len(b.touched) >= lim.postings:
			b.cut.postings = true
			return
		}
		b.touched = append(b.touched, id)
		b.counts = append(b.counts, [numFields]int32{})
		b.slot[id] = int32(len(b.touched))
	}
	b.counts[b.slot[id]-1][f]++
}

// countOf returns the counts of term t in the current document.
func (b *indexBuilder) countOf(t int32) [numFields]int32 {
	if s := b.slot[t]; s > 0 {
		return b.counts[s-1]
	}
	return [numFields]int32{}
}

// shortTerm returns the number of a word of at most 8 bytes, numbering it if it is new and add is
// set (-1: new and not added). Such a
// word is its own key: its bytes as a little-endian integer (a word holds no zero byte, so the
// key tells every length apart and is never 0, the empty slot).
func (b *indexBuilder) shortTerm(w []byte, add bool) int32 {
	var key uint64
	if cap(w) >= 8 {
		// Read 8 bytes at once and keep the word's: reading within the slice's capacity is safe.
		key = binary.LittleEndian.Uint64(w[:8]) & (^uint64(0) >> (64 - 8*len(w)))
	} else {
		for i, c := range w {
			key |= uint64(c) << (8 * i)
		}
	}
	if 2*b.nshort >= len(b.short) {
		b.growShort()
	}
	mask := uint64(len(b.short) - 1)
	for i := shortSlotOf(key, bits.TrailingZeros(uint(len(b.short)))); ; i = (i + 1) & mask {
		s := &b.short[i]
		if s.key == key {
			return s.id
		}
		if s.key == 0 {
			if !add {
				return -1
			}
			s.key, s.id = key, b.newTerm(w)
			b.nshort++
			return s.id
		}
	}
}

type shortSlot struct {
	key uint64
	id  int32
}

// growShort doubles the table of short words (at least 1,024 slots) and places them again.
func (b *indexBuilder) growShort() {
	old := b.short
	b.short = make([]shortSlot, max(1024, 2*len(old)))
	mask := uint64(len(b.short) - 1)
	for _, s := range old {
		if s.key == 0 {
			continue
		}
		i := shortSlotOf(s.key, bits.TrailingZeros(uint(len(b.short))))
		for b.short[i].key != 0 {
			i = (i + 1) & mask
		}
		b.short[i] = s
	}
}

// longTerm returns the number of a word of more than 8 bytes, numbering it if it is new and add is
// set (-1: new and not added).
func (b *indexBuilder) longTerm(w []byte, add bool) int32 {
	if 2*b.nlong >= len(b.slots) {
		b.grow()
	}
	h := hashWord(w)
	mask := uint32(len(b.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := b.slots[i]
		if s == 0 {
			if !add {
				return -1
			}
			id := b.newTerm(w)
			b.slots[i] = uint64(h)<<32 | uint64(id+1)
			b.nlong++
			return id
		}
		if uint32(s>>32) == h {
			if t := int32(uint32(s)) - 1; string(b.arena[b.offs[t]:b.offs[t+1]]) == string(w) {
				return t
			}
		}
	}
}

// term returns the bytes of term t.
func (b *indexBuilder) term(t int32) []byte { return b.arena[b.offs[t]:b.offs[t+1]] }

func (b *indexBuilder) newTerm(w []byte) int32 {
	if b.offs == nil {
		b.offs = []int32{0}
	}
	id := int32(b.terms)
	b.terms++
	b.arena = append(b.arena, w...)
	b.offs = append(b.offs, int32(len(b.arena)))
	b.slot = append(b.slot, 0)
	return id
}

// grow doubles the table of long words (at least 1,024 slots) and places them again.
func (b *indexBuilder) grow() {
	old := b.slots
	b.slots = make([]uint64, max(1024, 2*len(old)))
	mask := uint32(len(b.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := uint32(s>>32) & mask
		for b.slots[i] != 0 {
			i = (i + 1) & mask
		}
		b.slots[i] = s
	}
}

// endDoc closes the current document, whose fields had the given lengths in words.
func (b *indexBuilder) endDoc(lens [numFields]int32) {
	doc := int32(len(b.lens))
	for i, id := range b.touched {
		if len(b.flat) == 0 || len(b.flat[len(b.flat)-1]) == postingChunk {
			b.flat = append(b.flat, make([]rawPosting, 0, postingChunk))
		}
		last := &b.flat[len(b.flat)-1]
		*last = append(*last, rawPosting{term: id, doc: doc, tf: b.counts[i]})
		b.slot[id] = 0
	}
	b.posts += len(b.touched)
	b.touched, b.counts = b.touched[:0], b.counts[:0]
	b.docCut = false
	b.lens = append(b.lens, lens)
}

// merge appends the documents o read after those b read: o's terms get b's numbers (new ones are
// numbered after b's), its documents follow b's. o is spent.
func (b *indexBuilder) merge(o *indexBuilder) {
	ids := make([]int32, o.terms)
	for t := range o.terms {
		w := o.term(int32(t))
		if len(w) <= 8 {
			ids[t] = b.shortTerm(w, true)
		} else {
			ids[t] = b.longTerm(w, true)
		}
	}
	first := int32(len(b.lens))
	for _, c := range o.flat {
		for i := range c {
			c[i].term = ids[c[i].term]
			c[i].doc += first
		}
	}
	b.flat = append(b.flat, o.flat...)
	b.lens = append(b.lens, o.lens...)
	b.posts += o.posts
	b.cut.add(o.cut)
	*o = indexBuilder{}
}

// build makes the index of exact words. b is spent.
func (b *indexBuilder) build() *index {
	x := b.assemble(string(b.arena), b.offs, b.flat, b.avgLens())
	*b = indexBuilder{}
	return x
}

// buildSearch makes the exact index and the stem index. b is spent.
func (b *indexBuilder) buildSearch() *searchIndex {
	avg := b.avgLens()
	all := string(b.arena)
	exact := b.assemble(all, b.offs, b.flat, avg)
	// Each term's stem, computed once per term (not per occurrence), numbered in the order met by
	// a builder's tables (no string nor map entry per stem).
	stemID := make([]int32, b.terms)
	var sb indexBuilder
	for t := range b.terms {
		w := []byte(stemOf(all[b.offs[t]:b.offs[t+1]]))
		if len(w) <= 8 {
			stemID[t] = sb.shortTerm(w, true)
		} else {
			stemID[t] = sb.longTerm(w, true)
		}
	}
	nstems := sb.terms
	// The stem postings: a document's postings are consecutive in b.flat (endDoc writes them
	// together; merge keeps them so), so each document's counts are summed by stem in dense slots.
	acc := make([][numFields]int32, nstems)
	var touched []int32
	var flat [][]rawPosting
	emit := func(doc int32) {
		for _, id := range touched {
			if len(flat) == 0 || len(flat[len(flat)-1]) == postingChunk {
				flat = append(flat, make([]rawPosting, 0, postingChunk))
			}
			last := &flat[len(flat)-1]
			*last = append(*last, rawPosting{term: id, doc: doc, tf: acc[id]})
			acc[id] = [numFields]int32{}
		}
		touched = touched[:0]
	}
	cur := int32(-1)
	for _, c := range b.flat {
		for _, rp := range c {
			if rp.doc != cur {
				if cur >= 0 {
					emit(cur)
				}
				cur = rp.doc
			}
			id := stemID[rp.term]
			if acc[id] == ([numFields]int32{}) {
				touched = append(touched, id)
			}
			for f := range numFields {
				acc[id][f] += rp.tf[f]
			}
		}
	}
	if cur >= 0 {
		emit(cur)
	}
	stem := b.assemble(string(sb.arena), sb.offs, flat, avg)
	*b = indexBuilder{}
	return &searchIndex{exact: exact, stem: stem}
}

// avgLens is each field's average length over the documents that have it (1 when none has it).
func (b *indexBuilder) avgLens() [numFields]float64 {
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
		if have[f] > 0 {
			avg[f] /= have[f]
		} else {
			avg[f] = 1
		}
	}
	return avg
}

// assemble makes an index of the terms named by names and offs (term t is names[offs[t]:offs[t+1]])
// from raw postings in document order.
func (b *indexBuilder) assemble(names string, offs []int32, flat [][]rawPosting, avg [numFields]float64) *index {
	if len(offs) == 0 {
		offs = []int32{0}
	}
	nt := len(offs) - 1
	np := 0
	for _, c := range flat {
		np += len(c)
	}
	x := &index{names: names, offs: offs, start: make([]int32, nt+1), posts: make([]posting, np), n: len(b.lens)}
	if nt > 0 {
		x.table = make([]int32, 1<<bits.Len(uint(2*nt-1)))
		mask := uint64(len(x.table) - 1)
		for t := range nt {
			i := maphash.String(wordSeed, names[offs[t]:offs[t+1]]) & mask
			for x.table[i] != 0 {
				i = (i + 1) & mask
			}
			x.table[i] = int32(t) + 1
		}
	}
	for _, c := range flat {
		for _, rp := range c {
			x.start[rp.term+1]++
		}
	}
	for t := range nt {
		x.start[t+1] += x.start[t]
	}
	next := slices.Clone(x.start[:nt])
	for _, c := range flat {
		for _, rp := range c {
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
	}
	return x
}

// searchIndex is what search queries: the exact words, their stems, and the pairs of adjacent
// stems of the short fields (nil: none).
type searchIndex struct {
	exact, stem, pair *index
}

// stemOf is a word's English Snowball (Porter2) stem, for a word of ASCII letters of 3 to 40
// bytes; any other word (a number, a word of another script, a long token) is its own stem.
func stemOf(w string) string {
	if len(w) < 3 || len(w) > 40 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return w
		}
	}
	return english.Stem(w, false)
}

// queryWords drops English stop words from a query that has other words: "how do I join answers"
// asks about joins and answers, and in a small bundle "how" and "do" are rare enough to weigh.
func queryWords(q []string) []string {
	var keep []string
	for _, w := range q {
		if !english.IsStopWord(w) {
			keep = append(keep, w)
		}
	}
	if len(keep) == 0 {
		return q
	}
	return keep
}

// search scores every document holding a query word, by exact word and by stem, and returns the
// best k that keep accepts, highest score first (ties: lower document number, which is ID order).
func (si *searchIndex) search(query []string, k int, keep func(doc int) bool) []hit {
	pairs := queryPairs(query)
	query = queryWords(query)
	sc := getScratch(si.exact.n)
	defer putScratch(sc)
	seen := map[string]bool{}
	for _, w := range query {
		if seen[w] {
			continue
		}
		seen[w] = true
		st := stemOf(w)
		ps := si.stem.postings(st)
		// The exact postings are a subset of the stem's: the stem's count is the word's rarity.
		ex := si.exact.postings(w)
		si.exact.accumulateDF(sc, ex, len(ps), 1)
		sw := stemWeight
		if len(ex) == 0 {
			// No concept writes the word as asked: what the stem finds is the bundle's own
			// spelling of it, and scores as that spelling asked would (its exact match and stem).
			sw = 1 + stemWeight
		}
		si.stem.accumulateDF(sc, ps, len(ps), sw)
	}
	if si.pair != nil {
		for _, p := range pairs {
			si.pair.accumulate(sc, p, pairWeight)
		}
	}
	return sc.top(k, keep)
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

func getScratch(n int) *scratch {
	sc, _ := scratchPool.Get().(*scratch)
	if sc == nil || len(sc.scores) < n {
		sc = &scratch{scores: make([]float64, n)}
	}
	return sc
}

func putScratch(sc *scratch) {
	for _, d := range sc.touched {
		sc.scores[d] = 0
	}
	sc.touched = sc.touched[:0]
	scratchPool.Put(sc)
}

// accumulate adds weight × idf × tf of word w to the score of every document holding it.
func (x *index) accumulate(sc *scratch, w string, weight float64) {
	ps := x.postings(w)
	x.accumulateDF(sc, ps, len(ps), weight)
}

// accumulateDF adds weight × idf × tf of postings ps to the score of each document in them, the
// idf being that of a term held by df documents.
func (x *index) accumulateDF(sc *scratch, ps []posting, df int, weight float64) {
	if len(ps) == 0 {
		return
	}
	idf := weight * math.Log(1+(float64(x.n)-float64(df)+0.5)/(float64(df)+0.5))
	for _, p := range ps {
		if sc.scores[p.doc] == 0 {
			sc.touched = append(sc.touched, p.doc)
		}
		sc.scores[p.doc] += idf * float64(p.tf)
	}
}

// search scores every document holding a query word and returns the best k that keep accepts,
// highest score first (ties: lower document number, which is ID order).
func (x *index) search(query []string, k int, keep func(doc int) bool) []hit {
	sc := getScratch(x.n)
	defer putScratch(sc)
	seen := map[string]bool{}
	for _, w := range query {
		if seen[w] {
			continue
		}
		seen[w] = true
		x.accumulate(sc, w, 1)
	}
	return sc.top(k, keep)
}

// top returns the best k scored documents that keep accepts, best first.
func (sc *scratch) top(k int, keep func(doc int) bool) []hit {
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
