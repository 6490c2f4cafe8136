package lint

import (
	"time"

	"github.com/okf-tools/okf/okf"
)

// Options configures a run.
type Options struct {
	// Now is the clock (D11); ExpiringWithin the "expiring soon" window (0: okf.DefaultExpiringWindow).
	Now            time.Time
	ExpiringWithin time.Duration
	// Rules to run (nil: All()).
	Rules []*Rule
}

// Run runs the rules over a loaded bundle and returns the findings sorted and deduplicated.
func Run(b *okf.Bundle, opts Options) []okf.Diagnostic {
	rules := opts.Rules
	if rules == nil {
		rules = All()
	}
	window := opts.ExpiringWithin
	if window == 0 {
		window = okf.DefaultExpiringWindow
	}
	var out []okf.Diagnostic
	for _, r := range rules {
		p := &Pass{Bundle: b, Now: opts.Now, ExpiringWithin: window, Rule: r, report: func(d okf.Diagnostic) { out = append(out, d) }}
		r.Check(p)
	}
	return okf.SortDiagnostics(out)
}
