package attest

import (
	"os"
	"testing"
)

// TestMain lets the test binary serve as the sandbox launcher, as okf's main does.
func TestMain(m *testing.M) {
	SandboxMain()
	os.Exit(m.Run())
}
