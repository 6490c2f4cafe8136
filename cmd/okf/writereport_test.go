package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type failingWriter struct{ after int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.after <= 0 {
		return 0, errors.New("disk full")
	}
	f.after--
	return len(p), nil
}

// TestWriteReport: standard output is streamed, a file is written whole, and a failure to write
// standard output is told apart from a failure of the printer.
func TestWriteReport(t *testing.T) {
	big := strings.Repeat("x", 200<<10) // more than the buffer: written in several calls
	print := func(w io.Writer) error {
		_, err := io.WriteString(w, big)
		return err
	}
	var out bytes.Buffer
	if err := writeReport(&env{stdout: &out}, "", print, "cannot write the report"); err != nil || out.String() != big {
		t.Fatalf("stdout: err %v, %d bytes, want %d", err, out.Len(), len(big))
	}

	file := filepath.Join(t.TempDir(), "r.txt")
	out.Reset()
	if err := writeReport(&env{stdout: &out}, file, print, "cannot write the report"); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(file); err != nil || string(got) != big || out.Len() != 0 {
		t.Fatalf("file: err %v, %d bytes in the file, %d on stdout", err, len(got), out.Len())
	}

	err := writeReport(&env{stdout: &failingWriter{after: 1}}, "", print, "cannot write the report")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitFatal || ee.msg != "cannot write the report: disk full" {
		t.Fatalf("stdout failing: got %#v", err)
	}

	broken := func(w io.Writer) error { return errors.New("printer broke") }
	err = writeReport(&env{stdout: &out}, "", broken, "cannot write the report")
	if !errors.As(err, &ee) || ee.code != exitFatal || ee.msg != "printer broke" {
		t.Fatalf("printer failing: got %#v", err)
	}
}
