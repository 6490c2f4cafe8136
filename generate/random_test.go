package generate

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// randomTexts calls f with n texts (a tenth with -short), each 1 to maxPieces pieces drawn from
// alphabet, from the seed: the same texts every run, for the tests that compare a scanner with
// the code or regular expressions it replaced.
func randomTexts(seed uint64, n, maxPieces int, alphabet []string, f func(string)) {
	rng := rand.New(rand.NewPCG(seed, 2026))
	if testing.Short() {
		n /= 10
	}
	for range n {
		var b strings.Builder
		for range 1 + rng.IntN(maxPieces) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		f(b.String())
	}
}
