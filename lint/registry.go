package lint

import (
	"sort"
	"strings"
	"sync"
)

// registered is the registry: every rule okf defines, one line each. A new rule is its file
// (rule_<name>.go, the Rule value with its code, name, severity, docs, scope, the facts it reads and
// its fix) plus its line here; the engine, --list-rules, --explain, SARIF and docs/rules.md all read
// the rule from this list. No init() magic: TestRegistry checks codes and names are unique and every
// rule is documented, TestPerConceptRulesKeepTheirScope and TestBundleRulesDeclareTheirFacts that it
// reads what it declares.
func registered() []*Rule {
	return []*Rule{
		// §11 conformance checks the loader performs (D1: errors), OKF0xx.
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

		// The optional families (§4.1–§10) and conventions. Codes are grouped by family and never
		// reused: OKF1xx recommended fields and okf_version, OKF2xx timestamps, OKF3xx trust, OKF4xx
		// lifecycle, OKF5xx provenance, OKF6xx links and paths, OKF7xx attested computations, OKF8xx
		// reserved files. Legacy v0.1 rules sit in the family that superseded them (OKF308 timestamp,
		// OKF508 # Citations).
		TitleMissing,
		DescriptionMissing,
		DescriptionNotOneSentence,
		TagsNotStringList,
		FieldNotString,
		OKFVersionUnknown,
		OKFVersionMisspelled,
		TitleDuplicate,
		BodyEmpty,
		HeadingMissing,
		DescriptionTooLong,

		TimestampDateOnly,
		TimestampNoOffset,
		TimestampEmpty,
		TimestampInvalid,

		GeneratedByMissing,
		VerifiedInvalid,
		VerifiedEntryIncomplete,
		ActorUnconventional,
		ActorTeam,
		ChangedSinceVerified,
		HumanAuthoredUnreviewed,
		LegacyTimestamp,
		LegacyBundle,

		StatusUnknown,
		Stale,
		ExpiringSoon,
		LinkToDeprecated,

		SourcesNotList,
		SourceResourceMissing,
		SourceIDDuplicate,
		FootnoteUnknownSource,
		SourceNeverCited,
		UsageCountWithoutWindow,
		UsageCountNotInteger,
		LegacyCitations,
		FootnoteUndefined,

		LinkBroken,
		RootRelativePath,
		PathEscapes,
		SelfLink,
		LinkAnchorMissing,
		Orphan,
		LinkOutsideBundle,

		ComputationRuntimeMissing,
		ComputationCount,
		ParameterIncomplete,
		PlaceholderUndeclared,
		ParameterUnused,
		ReceiptNotList,
		AttesterUnresolved,
		ComputationFileMissing,
		ExecutorUnresolved,
		ComputationFieldsElsewhere,
		ComputationPartyMissing,

		IndexEntryBroken,
		ConceptNotIndexed,
		IndexWithoutSections,
		LogOrder,
		LogDuplicateDate,
		LogHeadingExtraText,
		LogStrayEntry,

		// The rules the engine itself reports, OKF9xx: inline suppressions and the JSON Schema
		// checks (see rules_engine.go).
		ConfigUnknownRule,
		UnusedSuppression,
		SchemaMismatch,
		SchemaUnusable,
	}
}

var (
	registryOnce sync.Once
	all          []*Rule // registered(), sorted by code
	byCode       map[string]*Rule
	byName       map[string]*Rule
)

func registry() {
	registryOnce.Do(func() {
		all = registered()
		sort.Slice(all, func(i, j int) bool { return all[i].Code < all[j].Code })
		byCode, byName = map[string]*Rule{}, map[string]*Rule{}
		for _, r := range all {
			byCode[r.Code] = r
			byName[r.Name] = r
		}
	})
}

// All returns every rule, sorted by code (a new slice: the caller may change it).
func All() []*Rule {
	registry()
	return append([]*Rule(nil), all...)
}

// ByCode returns the rule with the given code, or nil.
func ByCode(code string) *Rule {
	registry()
	return byCode[code]
}

// Lookup returns the rule with the given code ("OKF101") or name ("description-missing"), or nil.
// Configuration and suppression comments accept either.
func Lookup(codeOrName string) *Rule {
	registry()
	if r := byCode[codeOrName]; r != nil {
		return r
	}
	return byName[codeOrName]
}

// conformanceRules are the §11 checks the loader performs (OKF0xx), familyRules the checks of the
// optional families (OKF1xx–OKF8xx), engineRules the engine's own (OKF9xx).
func conformanceRules() []*Rule { return rulesWhere(func(c string) bool { return c < "OKF1" }) }
func familyRules() []*Rule {
	return rulesWhere(func(c string) bool { return c >= "OKF1" && c < "OKF9" })
}
func engineRules() []*Rule {
	return rulesWhere(func(c string) bool { return strings.HasPrefix(c, "OKF9") })
}

func rulesWhere(keep func(code string) bool) []*Rule {
	var out []*Rule
	for _, r := range All() {
		if keep(r.Code) {
			out = append(out, r)
		}
	}
	return out
}
