package main

import (
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"run","Package":"p/a","Test":"TestOK"}`,
		`{"Action":"output","Package":"p/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}`,
		`{"Action":"pass","Package":"p/a","Test":"TestOK","Elapsed":0.01}`,
		`{"Action":"run","Package":"p/a","Test":"TestBrowser"}`,
		`{"Action":"output","Package":"p/a","Test":"TestBrowser","Output":"=== RUN   TestBrowser\n"}`,
		`{"Action":"output","Package":"p/a","Test":"TestBrowser","Output":"    html_test.go:20: no chromium: install it\n"}`,
		`{"Action":"output","Package":"p/a","Test":"TestBrowser","Output":"--- SKIP: TestBrowser (0.00s)\n"}`,
		`{"Action":"skip","Package":"p/a","Test":"TestBrowser","Elapsed":0}`,
		`{"Action":"pass","Package":"p/a","Elapsed":0.5}`,
		`{"Action":"skip","Package":"p/empty"}`,
	}, "\n")
	s, err := read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if code := s.print(&out); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	want := "ok  \tp/a\t0.500s\n?   \tp/empty\t[no test files]\n\nSkipped tests (1):\n  p/a TestBrowser: html_test.go:20: no chromium: install it\n\ntests: 1 passed, 0 failed, 1 skipped\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}

	fail := `{"Action":"output","Package":"p/b","Test":"TestBad","Output":"    x_test.go:3: boom\n"}` + "\n" +
		`{"Action":"fail","Package":"p/b","Test":"TestBad"}` + "\n" + `{"Action":"fail","Package":"p/b","Elapsed":1}`
	s, _ = read(strings.NewReader(fail))
	out.Reset()
	if code := s.print(&out); code != 1 {
		t.Errorf("a failed test gives exit %d, want 1", code)
	}
	if !strings.Contains(out.String(), "--- FAIL: TestBad (p/b)\n        x_test.go:3: boom\n") || !strings.Contains(out.String(), "FAIL\tp/b\t1.000s") {
		t.Errorf("failure output:\n%s", out.String())
	}
	s, _ = read(strings.NewReader(""))
	if code := s.print(&out); code != 1 {
		t.Errorf("no test at all gives exit %d, want 1", code)
	}
}
