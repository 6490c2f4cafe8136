//go:build !unix

package main

import "github.com/rogpeppe/go-internal/testscript"

func mkfifoCmd(ts *testscript.TestScript, neg bool, args []string) {
	ts.Skip("no named pipes on this system")
}
