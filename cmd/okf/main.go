// Command okf checks, reports on and generates Open Knowledge Format (OKF) v0.2 bundles.
package main

import (
	"os"

	"github.com/okf-tools/okf/attest"
)

func main() {
	// First: when okf is re-executed as the sandbox launcher for an attester, this confines the
	// process and execs the attester, never returning (see attest/sandbox.go).
	attest.SandboxMain()
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
