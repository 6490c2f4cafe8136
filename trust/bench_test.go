package trust

import (
	"io"
	"testing"

	"github.com/okf-tools/okf/internal/synth"
	"github.com/okf-tools/okf/okf"
)

// BenchmarkBuild10k builds the report of a synthetic 10,000-concept bundle (loading excluded) and
// prints it in every format.
func BenchmarkBuild10k(b *testing.B) {
	dir := b.TempDir()
	if _, err := synth.Write(dir, synth.Options{Concepts: 10000}); err != nil {
		b.Fatal(err)
	}
	bundle, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{Now: fixtureNow, ExpiringWithin: okf.DefaultExpiringWindow}
	b.Run("build", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Build(bundle, opts)
		}
	})
	r := Build(bundle, opts)
	for _, f := range Formats {
		b.Run(f, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := Write(io.Discard, r, f, WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
