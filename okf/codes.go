package okf

// Conformance codes (§11, decisions D1–D8). They are stable: a code is never reused for another
// meaning. The loader reports them; lint surfaces them as rules with the same codes.
const (
	// CodeNoFrontmatter: a concept without a frontmatter block (§11.1).
	CodeNoFrontmatter = "OKF001"
	// CodeUnterminated: a frontmatter block that never closes (D2).
	CodeUnterminated = "OKF002"
	// CodeInvalidYAML: frontmatter that is not valid YAML, or not a mapping (D3).
	CodeInvalidYAML = "OKF003"
	// CodeNoType: frontmatter without `type` (§11.2).
	CodeNoType = "OKF004"
	// CodeBadType: `type` that is not a non-empty string (D4).
	CodeBadType = "OKF005"
	// CodeNotUTF8: a file that is not valid UTF-8 (D6).
	CodeNotUTF8 = "OKF006"
	// CodeIndexFrontmatter: frontmatter in an index.md below the root (D7).
	CodeIndexFrontmatter = "OKF007"
	// CodeRootIndexKeys: root index.md frontmatter with keys besides okf_version (D7).
	CodeRootIndexKeys = "OKF008"
	// CodeLogHeading: a log.md `##` heading that does not begin with a YYYY-MM-DD date (D8).
	CodeLogHeading = "OKF009"
	// CodeUnreadable: a file that could not be read: permissions or I/O, a named pipe, socket or
	// device (never opened), a file over the size limit (never read), a path leading outside the
	// root; also a stretch of a body not parsed because the Markdown parser would take too long on
	// it (tame.go).
	CodeUnreadable = "OKF010"
	// CodeSymlinkOutside: a symbolic link leading outside the bundle root, not followed (D5).
	CodeSymlinkOutside = "OKF011"
	// CodeLogFrontmatter: log.md frontmatter that cannot be read (D8 allows frontmatter there).
	CodeLogFrontmatter = "OKF012"
)
