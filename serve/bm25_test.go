package serve

import (
	"slices"
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
	} {
		want := tokens(s, nil)
		var b indexBuilder
		n := b.addField(fieldBody, []byte(s))
		got := counted(&b, fieldBody)
		sorted := slices.Sorted(slices.Values(want))
		if int(n) != len(want) || !slices.Equal(got, sorted) {
			t.Errorf("%q:\n addField %d %q\n tokens   %d %q", s, n, got, len(want), sorted)
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

// counted lists the words counted in field f of the document being read, each as many times as it
// was counted, sorted.
func counted(b *indexBuilder, f int) []string {
	var out []string
	for t := range b.terms {
		for range b.count[t][f] {
			out = append(out, string(b.term(int32(t))))
		}
	}
	slices.Sort(out)
	return out
}
