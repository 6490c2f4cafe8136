//go:build !unix

package generate

const oNonblock = 0
