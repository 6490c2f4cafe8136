package lint

// familyRules are the checks of the optional families (§4.1–§10) and conventions, one file each.
// Codes are grouped by family and never reused: OKF1xx recommended fields and okf_version,
// OKF2xx timestamps, OKF3xx trust, OKF4xx lifecycle, OKF5xx provenance, OKF6xx links and paths,
// OKF7xx attested computations, OKF8xx reserved files. Legacy v0.1 rules sit in the family that
// superseded them (OKF308 timestamp, OKF508 # Citations).
func familyRules() []*Rule {
	return []*Rule{
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
	}
}
