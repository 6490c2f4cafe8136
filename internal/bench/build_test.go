package main

import (
	"slices"
	"strings"
	"testing"
)

// TestReleaseBuild checks the bench builds okf with the release's settings from .goreleaser.yaml,
// and without its -X version templates, which `go build` would stamp in literally.
func TestReleaseBuild(t *testing.T) {
	cmd, err := releaseBuild("../..", "/tmp/okf")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(cmd.Args, " ")
	want := `go build -trimpath -tags urfave_cli_no_docs -ldflags -s -w -o /tmp/okf ./cmd/okf`
	if got != want {
		t.Errorf("releaseBuild runs\n%s\nwant\n%s", got, want)
	}
	if !slices.Contains(cmd.Env, "CGO_ENABLED=0") {
		t.Error("releaseBuild does not set CGO_ENABLED=0")
	}
	if cmd.Dir != "../.." {
		t.Errorf("releaseBuild runs in %q", cmd.Dir)
	}
}
