package lint

import "sort"

// All returns every rule, sorted by code. The explicit lists below are the registry: no init()
// magic, and the registry test checks codes are unique and every rule is documented.
func All() []*Rule {
	var all []*Rule
	all = append(all, conformanceRules()...)
	all = append(all, familyRules()...)
	all = append(all, engineRules()...)
	sort.Slice(all, func(i, j int) bool { return all[i].Code < all[j].Code })
	return all
}

// conformanceRules are the §11 checks the loader performs (D1: errors).
func conformanceRules() []*Rule {
	return []*Rule{
		FrontmatterMissing,
		FrontmatterUnterminated,
		FrontmatterInvalid,
		TypeMissing,
		TypeInvalid,
		NotUTF8,
		IndexFrontmatter,
		RootIndexKeys,
		LogHeadingDate,
		FileUnreadable,
		SymlinkOutside,
		LogFrontmatterInvalid,
		FrontmatterDelimiterLoose,
	}
}

// ByCode returns the rule with the given code, or nil.
func ByCode(code string) *Rule {
	for _, r := range All() {
		if r.Code == code {
			return r
		}
	}
	return nil
}
