package trust

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// TestGolden prints the fixture bundle at 2026-11-30T00:00:00Z in each format and compares with the
// files in testdata/golden, which were checked by hand against D10–D13. Set OKF_UPDATE_GOLDEN=1 to
// rewrite them after a deliberate change, then read the diff.
func TestGolden(t *testing.T) {
	r := buildFixture(t, Options{ExpiringWithin: okf.DefaultExpiringWindow})
	for format, ext := range map[string]string{"text": "txt", "markdown": "md", "json": "json"} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, r, format, WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", "mixed."+ext)
			if os.Getenv("OKF_UPDATE_GOLDEN") != "" {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != string(want) {
				t.Errorf("%s output differs from %s:\n%s", format, golden, got)
			}
			// Byte-identical on a second run.
			var again bytes.Buffer
			if err := Write(&again, buildFixture(t, Options{ExpiringWithin: okf.DefaultExpiringWindow}), format, WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if again.String() != buf.String() {
				t.Error("a second run printed something else")
			}
		})
	}
}

// TestTextColour: colour only when asked (the CLI asks only for a terminal without NO_COLOR).
func TestTextColour(t *testing.T) {
	r := buildFixture(t, Options{ExpiringWithin: okf.DefaultExpiringWindow})
	var plain, colour bytes.Buffer
	if err := Write(&plain, r, "text", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&colour, r, "text", WriteOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b[") {
		t.Error("plain text has ANSI escapes")
	}
	if !strings.Contains(colour.String(), red+"unverified"+reset) {
		t.Error("coloured text does not paint unverified red")
	}
	// Colour codes must not move the columns: stripping them gives the plain text back.
	stripped := colour.String()
	for _, c := range []string{red, green, yellow, bold, reset} {
		stripped = strings.ReplaceAll(stripped, c, "")
	}
	if stripped != plain.String() {
		t.Error("coloured text without its escapes differs from the plain text")
	}
}

func TestUnknownFormat(t *testing.T) {
	if err := Write(&bytes.Buffer{}, &Report{}, "yaml", WriteOptions{}); err == nil || !strings.Contains(err.Error(), `"yaml"`) {
		t.Errorf("err = %v, want an error naming the format", err)
	}
}
