package lint

// factSet names fields of conceptFacts: what a ScopeBundle rule declares it reads (Rule.reads).
// A run keeps of each concept only the facts one of its rules reads (plan.reads), so a fact a rule
// reads without declaring it is the zero value there, and TestBundleRulesDeclareTheirFacts, which
// runs each rule alone, finds the difference. Whether the frontmatter was read (present) and the
// inline lint directives (the engine's suppressions) are always kept.
type factSet uint16

const (
	factTitle       factSet = 1 << iota // title
	factDescription                     // description
	factDeprecated                      // deprecated
	factV02                             // v02
	factStatus                          // status
	factLegacy                          // legacy
	factCitations                       // cites, citesPos
	factEdges                           // edges
	factReach                           // reach
	factFragments                       // frags
	factHeadings                        // headings

	allFacts = factSet(1)<<iota - 1
)

// factsRead is what the rules read of the concepts' facts. A rule that may read the model
// (ScopeModel) reads them all.
func factsRead(rules []*Rule) factSet {
	var s factSet
	for _, r := range rules {
		switch r.Scope {
		case ScopeModel:
			s |= allFacts
		case ScopeBundle:
			s |= r.reads
		}
	}
	return s
}

// keepOnly zeroes the facts not in s.
func (f *conceptFacts) keepOnly(s factSet) {
	if s == allFacts {
		return
	}
	if s&factTitle == 0 {
		f.title = zeroFacts.title
	}
	if s&factDescription == 0 {
		f.description = ""
	}
	if s&factDeprecated == 0 {
		f.deprecated = false
	}
	if s&factV02 == 0 {
		f.v02 = false
	}
	if s&factStatus == 0 {
		f.status = nil
	}
	if s&factLegacy == 0 {
		f.legacy = nil
	}
	if s&factCitations == 0 {
		f.cites, f.citesPos = false, zeroFacts.citesPos
	}
	if s&factEdges == 0 {
		f.edges = nil
	}
	if s&factReach == 0 {
		f.reach = nil
	}
	if s&factFragments == 0 {
		f.frags = nil
	}
	if s&factHeadings == 0 {
		f.headings = headingTexts{}
	}
}

var zeroFacts conceptFacts
