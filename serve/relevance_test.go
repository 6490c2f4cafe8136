package serve

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// relevanceBundle finds a corpus bundle by name: the shared corpus or the shared large one beside
// the checkout (full: true), or the slice of the corpus a clone has under testdata/corpus, which
// may lack concepts. "" when it is absent.
func relevanceBundle(name string) (dir string, full bool) {
	for i, dir := range []string{
		filepath.Join("..", "..", "shared", "corpus", name),
		filepath.Join("..", "..", "shared", "corpus-large", name),
		filepath.Join("..", "testdata", "corpus", name),
		filepath.Join("testdata", "corpus", name),
	} {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir, i < 2
		}
	}
	return "", false
}

type question struct{ q, want string }

func readQuestions(t *testing.T, path string) []question {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var qs []question
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s: %q: want QUESTION<TAB>ID", path, line)
		}
		qs = append(qs, question{q, want})
	}
	return qs
}

// wholeFileBM25 is the baseline: plain BM25 (k1 1.2, b 0.75) over each concept's whole file as
// written, frontmatter included, one field, no stemming, with the same word splitting as okf.
type wholeFileBM25 struct {
	ids  []string
	tf   []map[string]int
	lens []int
	df   map[string]int
	avg  float64
}

func newWholeFileBM25(s *Server) *wholeFileBM25 {
	snap := s.snap.Load()
	b := &wholeFileBM25{df: map[string]int{}}
	total := 0
	for _, d := range snap.docs[:snap.concepts] {
		words := tokens(string(d.text), nil)
		tf := map[string]int{}
		for _, w := range words {
			tf[w]++
		}
		for w := range tf {
			b.df[w]++
		}
		b.ids = append(b.ids, d.id)
		b.tf = append(b.tf, tf)
		b.lens = append(b.lens, len(words))
		total += len(words)
	}
	b.avg = float64(total) / math.Max(1, float64(len(b.ids)))
	return b
}

func (b *wholeFileBM25) rank(query string) []string {
	n := float64(len(b.ids))
	type scored struct {
		id    string
		score float64
	}
	var hits []scored
	// The query's distinct words in one order: summed in map order, the scores differed in their
	// last bits from run to run, and so did the order of near ties.
	q := tokens(query, nil)
	slices.Sort(q)
	q = slices.Compact(q)
	for i, tf := range b.tf {
		var s float64
		for _, w := range q {
			f := float64(tf[w])
			if f == 0 {
				continue
			}
			df := float64(b.df[w])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			s += idf * f * 2.2 / (f + 1.2*(0.25+0.75*float64(b.lens[i])/b.avg))
		}
		if s > 0 {
			hits = append(hits, scored{b.ids[i], s})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].id < hits[j].id
	})
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.id)
	}
	return ids
}

// scores are recall@1, recall@5 and MRR (the reciprocal rank of the right concept, 0 past 50).
type scores struct{ r1, r5, mrr float64 }

func score(ranked [][]string, qs []question) scores {
	var s scores
	for i, q := range qs {
		for r, id := range ranked[i] {
			if r >= maxK {
				break
			}
			if id == q.want {
				if r == 0 {
					s.r1++
				}
				if r < 5 {
					s.r5++
				}
				s.mrr += 1 / float64(r+1)
				break
			}
		}
	}
	n := float64(len(qs))
	return scores{s.r1 / n, s.r5 / n, s.mrr / n}
}

// minMargin is how far okf's MRR must be above the baseline's over all the questions of the set
// the ranking was first tuned on: the target is 0.10, reached without the large bundle's
// ten questions (0.110, docs/serve.md) and not quite with them (0.098); held just under, so that a
// change that loses it fails. minHeldOutMargin is the margin reached on the held-out questions
// (0.131), held likewise.
const (
	minMargin        = 0.095
	minHeldOutMargin = 0.12
)

// TestSearchRelevance measures okf's search against a plain whole-file BM25 on the questions of
// testdata/relevance (questions written from real bundles' concepts, with the concept that answers
// each) and requires okf's MRR to beat the baseline's by minMargin over all of them, and to be no
// worse on any bundle.
func TestSearchRelevance(t *testing.T) {
	o, b, complete := relevance(t, "testdata/relevance", true)
	if complete && o.mrr < b.mrr+minMargin {
		t.Errorf("okf's MRR %.3f does not beat the baseline's %.3f by %.3f", o.mrr, b.mrr, minMargin)
	}
}

// TestSearchRelevanceHeldOut measures the same on testdata/relevance/heldout: questions written
// after the others, before the ranking was tuned, kept out of the first tuning (since then used,
// with the first set and fresh/, to choose what to keep). Few questions per bundle: the margin is required
// over all of them, not per bundle.
func TestSearchRelevanceHeldOut(t *testing.T) {
	o, b, complete := relevance(t, "testdata/relevance/heldout", false)
	if complete && o.mrr < b.mrr+minHeldOutMargin {
		t.Errorf("okf's MRR %.3f does not beat the baseline's %.3f by %.3f", o.mrr, b.mrr, minHeldOutMargin)
	}
}

// minDevFreshMargin is what okf's MRR must keep over the baseline's on fresh/: blind when it was
// written (+0.010 then), since used with the other two sets to choose what to keep, where 0.033 is
// reached (docs/serve.md): held just under. minBlindMargin is the margin on fresh2/, the second blind
// set, written after fresh/ had been used: +0.069 on the ranking of the start of the day, +0.074 on
// the ranking kept (one change, the body's headings left out of the pairs, was measured on it and
// not kept); held under it, so that a change that loses it fails.
const (
	minDevFreshMargin = 0.025
	minBlindMargin    = 0.06
)

// TestSearchRelevanceFresh measures the same on testdata/relevance/fresh: 87 questions over eleven
// bundles written by someone who had read neither the ranking's code nor the other questions, from
// concepts picked by a fixed rule (fresh/README.md). First measured blind, it is now, with the other
// two sets, what the ranking's changes are chosen on (docs/serve.md).
func TestSearchRelevanceFresh(t *testing.T) {
	o, b, complete := relevance(t, "testdata/relevance/fresh", false)
	if complete && o.mrr < b.mrr+minDevFreshMargin {
		t.Errorf("okf's MRR %.3f does not beat the baseline's %.3f by %.3f", o.mrr, b.mrr, minDevFreshMargin)
	}
}

// TestSearchRelevanceBlind measures the same on testdata/relevance/fresh2: 98 questions over the
// eleven bundles in four styles, written blind to the ranking and to every other question
// (fresh2/README.md), the figure to expect on other bundles; okf must stay minBlindMargin above the
// baseline.
func TestSearchRelevanceBlind(t *testing.T) {
	o, b, complete := relevance(t, "testdata/relevance/fresh2", false)
	if complete && o.mrr < b.mrr+minBlindMargin {
		t.Errorf("okf's MRR %.3f does not reach the baseline's %.3f + %.3f on the blind set", o.mrr, b.mrr, minBlindMargin)
	}
}

// relevance scores okf's search and the baseline on the questions of dir's NAME.tsv files, logs
// the figures per bundle and over all, and reports whether every bundle was present (but those of
// largeBundles). With perBundle, okf's MRR below the baseline's on any one bundle is an error. With -v it logs each
// question's rank (0: not in the first maxK) under both.
func relevance(t *testing.T, dir string, perBundle bool) (o, b scores, complete bool) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.tsv"))
	var allOKF, allBase [][]string
	var allQ []question
	bundles, optional := 0, 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".tsv")
		dir, full := relevanceBundle(name)
		if dir == "" {
			t.Logf("%s: bundle absent, skipped", name)
			if largeBundles[name] {
				optional++
			}
			continue
		}
		qs := readQuestions(t, f)
		s, err := New(Options{Dir: dir, Now: func() time.Time { return testNow }})
		if err != nil {
			t.Fatal(err)
		}
		if missing := absent(s, qs); missing != "" {
			if full {
				t.Fatalf("%s: no concept %s", name, missing)
			}
			t.Logf("%s: the slice in testdata/corpus has no concept %s: skipped", name, missing)
			continue
		}
		bundles++
		base := newWholeFileBM25(s)
		var okfRanks, baseRanks [][]string
		for _, q := range qs {
			_, out, err := s.search(context.Background(), nil, SearchIn{Query: q.q, K: maxK, IncludeDeprecated: true})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, h := range out.Hits {
				ids = append(ids, h.ID)
			}
			br := base.rank(q.q)
			okfRanks = append(okfRanks, ids)
			baseRanks = append(baseRanks, br)
			if testing.Verbose() {
				top := ids
				if len(top) > 3 {
					top = top[:3]
				}
				t.Logf("%s: okf %2d base %2d %q: want %s, okf top %v", name, rankOf(ids, q.want), rankOf(br, q.want), q.q, q.want, top)
			}
		}
		o, b := score(okfRanks, qs), score(baseRanks, qs)
		t.Logf("%s (%d questions): okf recall@1 %.2f recall@5 %.2f MRR %.3f; whole-file BM25 recall@1 %.2f recall@5 %.2f MRR %.3f",
			name, len(qs), o.r1, o.r5, o.mrr, b.r1, b.r5, b.mrr)
		if perBundle && o.mrr < b.mrr {
			t.Errorf("%s: okf's MRR %.3f is below the baseline's %.3f", name, o.mrr, b.mrr)
		}
		allOKF = append(allOKF, okfRanks...)
		allBase = append(allBase, baseRanks...)
		allQ = append(allQ, qs...)
	}
	if bundles == 0 {
		t.Skipf("no corpus bundle of %s is present", dir)
	}
	o, b = score(allOKF, allQ), score(allBase, allQ)
	t.Logf("all (%d questions, %d bundles): okf recall@1 %.2f recall@5 %.2f MRR %.3f; whole-file BM25 recall@1 %.2f recall@5 %.2f MRR %.3f",
		len(allQ), bundles, o.r1, o.r5, o.mrr, b.r1, b.r5, b.mrr)
	return o, b, bundles+optional == len(files)
}

// largeBundles are the bundles of ../shared/corpus-large: a set of questions is complete without
// them (most clones and CI lack the large corpus), its margin then required over the others.
var largeBundles = map[string]bool{"databricks-okf": true}

// absent returns the first concept qs expect that s does not have ("" when it has them all).
func absent(s *Server, qs []question) string {
	for _, q := range qs {
		if s.snap.Load().byID[q.want] == nil {
			return q.want
		}
	}
	return ""
}

// rankOf is want's rank in ids, from 1; 0 when it is not in the first maxK.
func rankOf(ids []string, want string) int {
	for r, id := range ids {
		if r >= maxK {
			break
		}
		if id == want {
			return r + 1
		}
	}
	return 0
}
