// Package adopt holds the tests of the files a team uses to adopt okf: the GitHub Action
// (action.yml), the pre-commit hook (.pre-commit-hooks.yaml), the Dockerfile, the GoReleaser
// configuration and the README snippets that show them. It has no code of its own.
package adopt
