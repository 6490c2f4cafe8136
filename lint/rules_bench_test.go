package lint

import (
	"fmt"
	"testing"

	"github.com/okf-tools/okf/internal/synth"
	"github.com/okf-tools/okf/okf"
)

// BenchmarkFamilyRules runs the family rules (not loading) over synthetic bundles of growing size.
// ns/concept must stay flat as the bundle grows: every rule is linear in the number of concepts
// (maps built once per pass, no loop over concepts inside a loop over concepts).
func BenchmarkFamilyRules(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("concepts=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			if _, err := synth.Write(dir, synth.Options{Concepts: n}); err != nil {
				b.Fatal(err)
			}
			bundle, err := okf.LoadDir(dir, okf.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			rules := familyRules()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				Run(bundle, Options{Now: fixtureNow, Rules: rules})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/concept")
		})
	}
}
