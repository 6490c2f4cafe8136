package serve

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// TestRunStdio: Run loads the bundle, says it is ready over stdio (url ""), answers the session
// and ends without an error when the input ends.
func TestRunStdio(t *testing.T) {
	var out bytes.Buffer
	ready, concepts := "", 0
	err := Run(context.Background(), Request{
		Options: Options{Dir: "testdata/bundle"},
		Stdin:   strings.NewReader(initLine + "\n"), Stdout: &out,
		Ready: func(s *Server, url string) { ready, concepts = "called "+url, s.Concepts() },
	})
	if err != nil {
		t.Fatal(err)
	}
	if ready != "called " || concepts == 0 {
		t.Errorf("Ready: %q with %d concepts, want called with no URL and the bundle's concepts", ready, concepts)
	}
	if !strings.Contains(out.String(), `"id":1`) {
		t.Errorf("no answer to initialize:\n%s", out.String())
	}
}

// TestRunRefuses: a folder in no bundle is refused before anything is served, and Ready is not
// called.
func TestRunRefuses(t *testing.T) {
	called := false
	err := Run(context.Background(), Request{Options: Options{Dir: filepath.Join(t.TempDir(), "none")},
		Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Ready: func(*Server, string) { called = true }})
	var nb *okf.NotBundleError
	if !errors.As(err, &nb) || called {
		t.Fatalf("a missing folder: %v (ready %v), want a *okf.NotBundleError before serving", err, called)
	}
}
