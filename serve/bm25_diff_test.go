package serve

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/okf-tools/okf/internal/synth"
)

// corpusBundles lists the bundles of the corpus of real bundles written by other people:
// ../shared/corpus when it is there, else the slice of it committed in testdata/corpus.
func corpusBundles(t testing.TB) []string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		dir = filepath.Join("..", "testdata", "corpus")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// oldWords is what the old index builder counted in text, sorted.
func oldWords(text []byte) []string {
	var b oldIndexBuilder
	b.addField(fieldBody, text)
	var out []string
	for id, w := range b.words {
		for range b.count[id][fieldBody] {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}

// checkTokenizer compares, on text, the words the index builder counts with those of the old
// builder and of tokens (which splits queries).
func checkTokenizer(t *testing.T, name string, text []byte) {
	t.Helper()
	var b indexBuilder
	n := b.addField(fieldBody, text)
	got := counted(&b, fieldBody)
	want := oldWords(text)
	words := len(tokens(string(text), nil))
	ref := indexedWords(string(text))
	if int(n) != words || !slices.Equal(got, want) || !slices.Equal(got, ref) {
		t.Fatalf("%s: %q\nnew    %d %q\nold    %q\ntokens %d, with parts %q", name, clip(string(text), 200), n, got, want, words, ref)
	}
}

// indexedWords is what the index counts of s, sorted: its words as tokens splits them (the query
// side), and the parts of those written in camel case (camelParts, of two bytes or more).
func indexedWords(s string) []string {
	out := tokens(s, nil)
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) }) {
		camelParts([]byte(w), func(from, to int) {
			if to-from >= 2 {
				out = append(out, strings.ToLower(w[from:to]))
			}
		})
	}
	slices.Sort(out)
	return out
}

// fragments are the pieces random text is made of: ASCII of every case, separators, Markdown,
// letters that lowercase to ASCII or change length (Kelvin sign, dotted İ), titlecase, combining
// marks, scripts without case, full-width forms, emoji, and bytes that are not UTF-8.
var fragments = []string{
	"a", "Z", "kv", "Cache", "QUICK", "42", "x9", " ", "\n", "-", "_", ".", ",", "'", "[", "](", "`", "#", "*", "|",
	"\u212a", "İ", "ı", "ǅ", "ß", "Σ", "ς", "é", "e\u0301", "\u0301", "\u0903", "ä", "Ω", "ﬁ",
	"日本", "中文", "한국어", "ＫＶ", "１２", "٣", "𝔄", "😀", "\u200b", "\u00a0", "\ufeff", "\ufffd",
	"\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80",
}

// The index builder counts exactly the words the old builder counted and tokens splits (the
// query side), on random text and on every file of the corpus.
func TestTokenizerDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 2026))
	var sb strings.Builder
	for i := range 5000 {
		sb.Reset()
		for range r.IntN(40) {
			if r.IntN(8) == 0 {
				sb.WriteByte(byte(r.IntN(256)))
				continue
			}
			sb.WriteString(fragments[r.IntN(len(fragments))])
		}
		checkTokenizer(t, "random "+string(rune('0'+i%10)), []byte(sb.String()))
	}
	files := 0
	for _, dir := range corpusBundles(t) {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			files++
			checkTokenizer(t, p, data)
			return nil
		})
	}
	t.Logf("%d corpus files", files)
}

func FuzzTokenizer(f *testing.F) {
	for _, s := range fragments {
		f.Add([]byte(s))
	}
	f.Add([]byte("KV-cache: the \u212aV cache, İstanbul e\u0301 \xff"))
	f.Fuzz(func(t *testing.T, text []byte) {
		checkTokenizer(t, "fuzz", text)
	})
}

// buildOld builds the old index over the same documents as indexDocs.
func buildOld(docs []*doc) *oldIndex {
	var ib oldIndexBuilder
	for _, d := range docs {
		var lens [numFields]int32
		for f, text := range fieldTexts(d, nil, nil) {
			lens[f] = ib.addField(f, text)
		}
		ib.endDoc(lens)
	}
	return ib.build()
}

// compareIndexes checks that the new index of s's concepts holds exactly the old one's terms and
// postings (documents and bit-identical weights), and that searches answer alike: every term alone,
// and random queries of several words, with and without a filter.
func compareIndexes(t *testing.T, name string, s *snapshot) {
	t.Helper()
	docs := s.docs[:s.concepts]
	old := buildOld(docs)
	si, _ := indexDocs(docs, nil)
	x := si.exact
	if x.numTerms() != len(old.postings) || x.n != old.n {
		t.Fatalf("%s: %d terms over %d documents, old index %d over %d", name, x.numTerms(), x.n, len(old.postings), old.n)
	}
	words := make([]string, 0, len(old.postings))
	for w, ps := range old.postings {
		words = append(words, w)
		got := x.postings(w)
		if len(got) != len(ps) {
			t.Fatalf("%s: %q has %d postings, old %d", name, w, len(got), len(ps))
		}
		for i := range ps {
			if got[i].doc != ps[i].doc || math.Float32bits(got[i].tf) != math.Float32bits(ps[i].tf) {
				t.Fatalf("%s: %q posting %d is %+v, old %+v", name, w, i, got[i], ps[i])
			}
		}
	}
	slices.Sort(words)
	same := func(q []string, k int, keep func(int) bool) {
		a, b := x.search(q, k, keep), old.search(q, k, keep)
		if !slices.Equal(a, b) {
			t.Fatalf("%s: search %q k=%d:\nnew %+v\nold %+v", name, q, k, a, b)
		}
	}
	for _, w := range words {
		same([]string{w}, 10, nil)
	}
	odd := func(d int) bool { return d%2 == 1 }
	r := rand.New(rand.NewPCG(uint64(len(words)), 7))
	for range 2000 {
		q := make([]string, 1+r.IntN(5))
		for i := range q {
			q[i] = words[r.IntN(len(words))]
		}
		k := 1 + r.IntN(50)
		same(q, k, nil)
		same(q, k, odd)
	}
	if h := x.search([]string{"no-such-term"}, 5, nil); len(h) != 0 {
		t.Fatalf("%s: a term in no document found %+v", name, h)
	}
}

// The new index holds the same postings and answers every search (ids, order, scores) as the old
// implementation did, on the test bundle, a synthetic one and every corpus bundle, built by one
// goroutine and by two (halves merged).
func TestIndexMatchesOld(t *testing.T) {
	dirs := []string{"testdata/bundle"}
	syn := t.TempDir()
	if _, err := synth.Write(syn, synth.Options{Concepts: 300}); err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, syn)
	dirs = append(dirs, corpusBundles(t)...)
	for _, dir := range dirs {
		s, err := New(Options{Dir: dir, Now: func() time.Time { return testNow }})
		if err != nil {
			t.Fatal(err)
		}
		snap := s.snap.Load()
		if snap.concepts == 0 {
			continue
		}
		compareIndexes(t, dir, snap)
		// Again read by two goroutines and merged, whatever the size.
		n := parallelIndex
		parallelIndex = 2
		compareIndexes(t, dir+" (two halves)", snap)
		parallelIndex = n
	}
}

// 20,000 distinct words (the hash table grows many times, and words share its low bits) are all
// told apart and counted, whatever their case.
func TestIndexManyTerms(t *testing.T) {
	var b indexBuilder
	var text []byte
	want := map[string]int{}
	for i := range 20000 {
		w := strings.Repeat("w", 1+i%7) + string(rune('a'+i%26)) + strconv.Itoa(i)
		want[w]++
		text = append(append(text, w...), ' ')
	}
	text = append(text, "w1 W1 w1"...)
	want["w1"] += 3
	b.addField(fieldBody, text)
	// Two words over 8 bytes of the same 32-bit hash (the hash is keyed per process: found by
	// trying collide0, collide1, ... until two meet, about 80,000 words by the birthday bound): told
	// apart by their bytes.
	seen := map[uint32]string{}
	var c1, c2 string
	for i := 0; c2 == ""; i++ {
		w := "collide" + strconv.Itoa(i)
		h := hashWord([]byte(w))
		if o, ok := seen[h]; ok {
			c1, c2 = o, w
		}
		seen[h] = w
	}
	b.addField(fieldBody, []byte(c1+" "+c2+" "+strings.ToUpper(c2)))
	want[c1], want[c2] = 1, 2
	got := map[string]int{}
	for t := range b.terms {
		got[string(b.term(int32(t)))] = int(b.countOf(int32(t))[fieldBody])
	}
	if len(got) != len(want) {
		t.Fatalf("%d terms, want %d", len(got), len(want))
	}
	for w, n := range want {
		if got[w] != n {
			t.Fatalf("%q counted %d times, want %d", w, got[w], n)
		}
	}
}

// lowerRun counts, from the first, the bytes that are lowercase ASCII letters or digits: checked
// against a byte at a time on every byte value in every position, and on random words.
func TestLowerRun(t *testing.T) {
	slow := func(b []byte) int {
		for i, c := range b {
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
				return i
			}
		}
		return len(b)
	}
	check := func(b []byte) {
		if got, want := lowerRun(binary.LittleEndian.Uint64(b)), slow(b); got != want {
			t.Fatalf("%q: %d, want %d", b, got, want)
		}
	}
	base := []byte("abcdefgh")
	for pos := range 8 {
		for c := range 256 {
			b := slices.Clone(base)
			b[pos] = byte(c)
			check(b)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := "az09AZ_-:/ \x7f\x80\xff`{@[" + "0123456789abcdefghijklmnopqrstuvwxyz"
	for range 100000 {
		b := make([]byte, 8)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		check(b)
	}
}
