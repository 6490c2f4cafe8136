package okf

import (
	"math/rand"
	"slices"
	"testing"
)

// lineCountsSlow is the byte loop lineCounts replaced: the reference it must agree with.
func lineCountsSlow(line []byte) (runs, labels int, hasDest bool) {
	refs := 0
	for i, c := range line {
		switch c {
		case '*', '_':
			if i > 0 && line[i-1] == c {
				continue
			}
			if c == '_' {
				j := i
				for j < len(line) && line[j] == '_' {
					j++
				}
				if i > 0 && isAlnum(line[i-1]) && j < len(line) && isAlnum(line[j]) {
					continue
				}
			}
			runs++
		case ']':
			labels++
			if i+1 < len(line) && line[i+1] == '(' {
				hasDest = true
			}
		case '^':
			if i > 0 && line[i-1] == '[' {
				refs++
			}
		}
	}
	return runs, max(labels-refs, 0), hasDest
}

// lineStartsSlow is the byte loop newLineIndex replaced.
func lineStartsSlow(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// randomScanText draws text from the bytes the scans look at (and a few they skip), so runs,
// snake_case, labels, destinations and footnote references meet in every combination.
func randomScanText(r *rand.Rand) []byte {
	const alphabet = "*_]([^a1 \n\t\xc3\xa9"
	b := make([]byte, r.Intn(40))
	for i := range b {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	return b
}

func checkScans(t *testing.T, b []byte) {
	t.Helper()
	r1, l1, d1 := lineCounts(b)
	r2, l2, d2 := lineCountsSlow(b)
	if r1 != r2 || l1 != l2 || d1 != d2 {
		t.Fatalf("lineCounts(%q) = %d, %d, %v; byte loop says %d, %d, %v", b, r1, l1, d1, r2, l2, d2)
	}
	if got, want := newLineIndex(b).starts, lineStartsSlow(b); !slices.Equal(got, want) {
		t.Fatalf("newLineIndex(%q).starts = %v, want %v", b, got, want)
	}
}

// TestScansMatchByteLoops: the vectorised scans give the byte loops' answers on chosen lines and on
// 200,000 random ones.
func TestScansMatchByteLoops(t *testing.T) {
	for _, s := range []string{"", "*", "_", "**a**", "a_b_c", "_a_", "__init__", "x__y", "[^1] [a](b) ]", "[^", "]", "](", "a\nb\n", "\n\n", "é_é", "*_*_"} {
		checkScans(t, []byte(s))
	}
	r := rand.New(rand.NewSource(11))
	for range 200_000 {
		checkScans(t, randomScanText(r))
	}
}

func FuzzScans(f *testing.F) {
	for _, s := range []string{"**a** _b_ snake_case [^1] [a](b.md)\n", "__x__\n]("} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkScans(t, b) })
}
