package lint

// HeadingSlug is the anchor GitHub gives a heading's text (github-slugger), as the
// link-anchor-missing rule derives it: for tools that follow a link to its heading (okf lsp).
func HeadingSlug(text string) string { return headingSlug(text) }
