package lint

// familyRules are the checks of the optional families (§4.1–§10) and conventions, one file each.
func familyRules() []*Rule {
	return []*Rule{}
}
