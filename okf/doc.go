// Package okf is the model and parser of Open Knowledge Format (OKF) v0.2 bundles: folders of
// Markdown concepts with YAML frontmatter, index.md listings and log.md histories.
//
// LoadDir (or Load, for any fs.FS) reads a bundle in parallel into a Bundle: concepts sorted by ID,
// each with its frontmatter families as typed values that carry their path:line:col, the body's
// links, headings, footnotes and code blocks (never the Markdown syntax tree), the reserved files,
// and the §11 conformance diagnostics found on the way. Loading never stops at a bad file.
//
// The spec's meaning that every command shares lives here once, as pure functions taking the clock
// as an argument: ParseTimestamp (decision D10), TierOf and ChangedSinceVerified (D12), StatusOf
// (D13), FreshnessOf and ResolveNow (D11), ResolvePath (D14), ResolveLink (D15), ClassifyActor (§7),
// and the Attested Computation helpers IsAttestedComputation and ComputationBlocks (§10; the
// placeholders of its SQL are internal/sqllex's, D17).
//
// Edit, ApplyEdits and UnifiedDiff are the rewrite machinery okf migrate and okf lint --fix share:
// an edit replaces the text at a position the parser gave (ScalarSpan, KeySpan), so a rewritten file
// keeps its key order, comments and quoting.
//
// A bundle's root is its top folder, named by a path (Target.Root, FindRoot, ApplyChanges' root);
// the file system confined to it, through which every file is read, is a FileSystem
// (OpenFileSystem, NewFileSystem, Opened.FileSystem, Bundle.FileSystem), named fsys or r inside the
// package.
//
// The YAML fast path, how a frontmatter is read into the yaml.v3 tree the model is built from, is
// okf/internal/fastyaml; the Markdown fast path, how most bodies are read into a Body without
// goldmark, is okf/internal/fastmd. This package imports no other package of the module but those
// two, which import none, and the leaves under internal/ (escaping, did-you-mean, sizes, diffs),
// which import nothing of okf's; internal/arch keeps it so.
package okf
