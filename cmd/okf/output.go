package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/okf-tools/okf/okf"
)

// countOf writes "1 warning" or "2 warnings".
func countOf(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// writeReport writes what print makes: to the file out (when not empty), replaced atomically and so
// held whole first; else streamed to standard output through a buffer, so a large report is never
// held in memory. A failure to write standard output is reported as "<what>: <error>".
func writeReport(e *env, out string, print func(io.Writer) error, what string) error {
	if out != "" {
		if err := notOverBundleFile(out); err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := print(&buf); err != nil {
			return fatalErr("%v", err)
		}
		if err := okf.WriteFileAtomic(out, buf.Bytes(), 0o644); err != nil {
			return fatalErr("cannot write %q: %v", out, unwrapPathErr(err))
		}
		return nil
	}
	sw := &stickyWriter{w: e.stdout}
	bw := bufio.NewWriterSize(sw, 64<<10)
	err := print(bw)
	if err == nil {
		err = bw.Flush()
	}
	if sw.err != nil {
		return fatalErr("%s: %v", what, sw.err)
	}
	if err != nil {
		return fatalErr("%v", err)
	}
	return nil
}

// stickyWriter keeps the first error of the writer it wraps, and writes nothing after it.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// notOverBundleFile refuses, as a usage error (exit 2) and before anything is written, a report,
// baseline or receipt path that would replace a file a bundle is made of (okf.ReplacesBundleFile):
// a concept, an index.md, a log.md or a .okf.yaml named by mistake would otherwise be lost to the
// report.
func notOverBundleFile(path string) error {
	if why, ok := okf.ReplacesBundleFile(path); ok {
		return usageErr("refusing to write over %q: %s; name another file for the report", path, why)
	}
	return nil
}
