package serve

import (
	"math/rand"
	"sort"
	"strings"
	"testing"
)

// oldWordStarts and oldCutWords are read's cut as it was (every word start of the whole body found
// on each call), kept to check that the bounded cut gives the same words.
func oldWordStarts(text string) []int {
	var starts []int
	in := false
	for i, r := range text {
		space := isSpace(r)
		if !space && !in {
			starts = append(starts, i)
		}
		in = !space
	}
	return starts
}

func oldCutWords(text string, starts []int, offset, n, limit int) (string, int, int) {
	total := len(starts)
	if offset >= total {
		return "", total, 0
	}
	from := starts[offset]
	end := min(offset+n, total)
	upTo := func(end int) string {
		if end >= total {
			return strings.TrimRight(text[from:], " \t\r\n\f\v")
		}
		return strings.TrimRight(text[from:starts[end]], " \t\r\n\f\v")
	}
	cut := upTo(end)
	if len(cut) > limit {
		i := sort.SearchInts(starts, from+limit) - 1
		if i <= offset {
			i = offset + 1
		}
		end = min(i, end)
		cut = upTo(end)
		if len(cut) > limit {
			cut = strings.ToValidUTF8(cut[:limit], "")
		}
	}
	if end >= total {
		end = 0
	}
	return cut, total, end
}

// TestCutWordsAsBefore: on bodies of short words, long words, runs of spaces and invalid bytes,
// the bounded cut returns what the old one did, or, where the old one left out a last word that
// fitted within the limit (it cut at the last word start before the limit), that word too.
func TestCutWordsAsBefore(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "bb", "word", "é", "\u2028", " ", "  ", "\n", "\t", strings.Repeat("x", 1500), strings.Repeat(" ", 1500), "\xff", "\u00a0"}
	same, differ := 0, 0
	for range 1000 {
		var b strings.Builder
		for range rng.Intn(600) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		body := b.String()
		starts := oldWordStarts(body)
		x := (&wordIndex{}).words([]byte(body))
		if x.total != len(starts) {
			t.Fatalf("total %d, want %d", x.total, len(starts))
		}
		offset, n, limit := rng.Intn(len(starts)+2), 1+rng.Intn(600), 1+rng.Intn(4000)
		got, gt, gn := cutWords([]byte(body), x, offset, n, limit)
		want, wt, wn := oldCutWords(body, starts, offset, n, limit)
		if got == want && gt == wt && gn == wn {
			same++
			continue
		}
		differ++
		oneMore := gn == wn || gn == wn+1 || gn == 0 && wn == gt-1
		if len(got) > limit || gt != wt || !oneMore || !prefixes(strings.ToValidUTF8(got, ""), strings.ToValidUTF8(want, "")) {
			t.Fatalf("offset %d n %d limit %d: got (%d bytes, %d, %d), want (%d bytes, %d, %d)", offset, n, limit, len(got), gt, gn, len(want), wt, wn)
		}
	}
	t.Logf("%d cuts as before, %d with the same words less trailing space, or one word more", same, differ)
}

func prefixes(a, b string) bool { return strings.HasPrefix(a, b) || strings.HasPrefix(b, a) }
