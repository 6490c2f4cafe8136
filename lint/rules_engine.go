package lint

// engineRules are the rules the engine itself reports: configuration errors, unused suppressions,
// schema checks.
func engineRules() []*Rule {
	return []*Rule{}
}
