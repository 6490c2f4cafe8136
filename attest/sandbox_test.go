package attest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// contractWith is a minimal Attested Computation whose attester is resource.
func contractWith(resource string) string {
	return "---\ntype: Attested Computation\nruntime: sqlite\nparameters:\n  - { name: year, type: integer, required: true }\n" +
		"executor:\n  receipt: [executed_sql]\nattester:\n  resource: " + resource + "\n---\n\n# Computation\n\n" +
		"```sql\nSELECT SUM(amount) FROM sales WHERE year = @year\n```\n"
}

// attestIn writes a bundle with one computation c.md and the given files, and attests a receipt
// that matches the computation.
func attestIn(t *testing.T, resource string, files map[string]string, opts Options) (*Result, string) {
	t.Helper()
	return attestInDir(t, resource, files, opts, nil, true)
}

// attestInDir is attestIn that tells seen the bundle folder before the run; open makes the
// folders world-readable, as a checkout usually is.
func attestInDir(t *testing.T, resource string, files map[string]string, opts Options, seen func(string), open bool) (*Result, string) {
	t.Helper()
	opts.AllowExec = true
	dir := t.TempDir()
	if open {
		os.Chmod(filepath.Dir(dir), 0o755)
		os.Chmod(dir, 0o755)
	}
	if seen != nil {
		seen(dir)
	}
	files["c.md"] = contractWith(resource)
	writeFiles(t, dir, files)
	b := loadBundle(t, dir)
	comp := Find(b, "c", opts.AllowOutside)
	text, err := comp.ComputationText()
	if err != nil {
		t.Fatal(err)
	}
	receipt := json.RawMessage(`{"executed_sql": "SELECT SUM(amount) FROM sales WHERE year = @year", "result": [12]}`)
	return Attest(b, comp, NewRequest(comp, text, map[string]any{"year": 2025}, receipt, json.RawMessage("12.0")), opts), dir
}

func TestSandboxOutputCap(t *testing.T) {
	res, _ := attestIn(t, "big.sh", map[string]string{
		"big.sh": "#!/bin/sh\ncat >/dev/null\nhead -c 5000 /dev/zero | tr '\\0' x\nhead -c 5000 /dev/zero | tr '\\0' y >&2\n",
	}, Options{OutputCap: 1000})
	if res.Outcome != Error || !strings.Contains(deref(res.Reason), "more than the 1000-byte output cap on stdout") {
		t.Errorf("got %s (%s), want error for the output cap", res.Outcome, deref(res.Reason))
	}
	if strings.Join(res.Capped, ",") != "stdout,stderr" {
		t.Errorf("capped = %v, want [stdout stderr]", res.Capped)
	}
	if n := len(strings.TrimPrefix(res.StderrTail, "…")); n > stderrTailBytes {
		t.Errorf("stderr tail is %d bytes, want at most %d", n, stderrTailBytes)
	}
}

func TestSandboxCleanEnvironment(t *testing.T) {
	env := map[string]string{"PATH": os.Getenv("PATH"), "LANG": "C.UTF-8", "HOME": "/home/real", "OKF_SECRET": "s3cret", "OKF_PASSED": "yes"}
	res, _ := attestIn(t, "env.sh", map[string]string{
		"env.sh": "#!/bin/sh\ncat >/dev/null\n" +
			`printf '{"ok": true, "reason": null, "details": {"names": "%s", "home": "%s", "passed": "%s", "secret": "%s"}}\n' ` +
			`"$(env | cut -d= -f1 | grep -v -e '^PWD$' -e '^SHLVL$' -e '^_$' | sort | tr '\n' ' ')" "$HOME" "$OKF_PASSED" "$OKF_SECRET"` + "\n",
	}, Options{Getenv: func(k string) string { return env[k] }, Env: []string{"OKF_PASSED"}})
	if res.Outcome != Pass {
		t.Fatalf("got %s (%s), stderr %q", res.Outcome, deref(res.Reason), res.StderrTail)
	}
	var d map[string]string
	if err := json.Unmarshal(res.Details, &d); err != nil {
		t.Fatal(err)
	}
	if d["names"] != "HOME LANG OKF_PASSED PATH TMPDIR " {
		t.Errorf("the attester saw variables %q, want only HOME LANG OKF_PASSED PATH TMPDIR", d["names"])
	}
	if d["home"] == "/home/real" || d["home"] == "" || d["passed"] != "yes" || d["secret"] != "" {
		t.Errorf("home %q passed %q secret %q: want a temporary HOME, the --env variable, no other", d["home"], d["passed"], d["secret"])
	}
}

func TestSandboxWorksOnACopy(t *testing.T) {
	res, dir := attestIn(t, "scribble.sh", map[string]string{
		"scribble.sh": "#!/bin/sh\ncat >/dev/null\necho changed > c.md\ntouch new-file\n" +
			`echo '{"ok": true, "reason": null, "details": {}}'` + "\n",
	}, Options{})
	if res.Outcome != Pass {
		t.Fatalf("got %s (%s)", res.Outcome, deref(res.Reason))
	}
	data, err := os.ReadFile(filepath.Join(dir, "c.md"))
	if err != nil || !strings.HasPrefix(string(data), "---\ntype: Attested Computation") {
		t.Errorf("the attester changed the bundle: c.md is now %q", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "new-file")); err == nil {
		t.Error("the attester created a file in the bundle")
	}
}

// TestExecOptIn: without AllowExec an external attester never runs and says how to allow it;
// a builtin runs either way.
func TestExecOptIn(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	writeFiles(t, dir, map[string]string{"c.md": contractWith("run.sh"), "run.sh": "#!/bin/sh\ntouch " + marker + "\n"})
	b := loadBundle(t, dir)
	comp := Find(b, "c", false)
	text, _ := comp.ComputationText()
	receipt := json.RawMessage(`{"executed_sql": "SELECT SUM(amount) FROM sales WHERE year = @year"}`)
	res := Attest(b, comp, NewRequest(comp, text, nil, receipt, nil), Options{})
	if res.Outcome != Unavailable || !strings.Contains(deref(res.Reason), "--allow-exec (or set OKF_ALLOW_EXEC=1)") {
		t.Errorf("got %s (%s); want unavailable naming --allow-exec and OKF_ALLOW_EXEC=1", res.Outcome, deref(res.Reason))
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the attester ran without --allow-exec")
	}
	bi, _ := attestIn(t, "builtin:sql-equality", map[string]string{}, Options{})
	if bi.Outcome != Pass {
		t.Errorf("builtin without --allow-exec: got %s (%s), want pass", bi.Outcome, deref(bi.Reason))
	}
}

func TestExecutableFailVerdict(t *testing.T) {
	res, _ := attestIn(t, "no.sh", map[string]string{
		"no.sh": "#!/bin/sh\ncat >/dev/null\necho 'looking' >&2\n" + `echo '{"ok": false, "reason": "job id unknown", "details": {"job": null}}'` + "\n",
	}, Options{})
	if res.Outcome != Fail || deref(res.Reason) != "job id unknown" || string(res.Details) != `{"job":null}` || res.StderrTail != "looking" {
		t.Errorf("got %s %q %s stderr %q; want fail with the attester's reason, details and stderr", res.Outcome, deref(res.Reason), res.Details, res.StderrTail)
	}
}

func TestNotExecutable(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"c.md": contractWith("check.txt"), "check.txt": "not a program"})
	b := loadBundle(t, dir)
	comp := Find(b, "c", false)
	res := Attest(b, comp, NewRequest(comp, "", nil, json.RawMessage(`{"executed_sql": ""}`), nil), Options{})
	if res.Outcome != Error || !strings.Contains(deref(res.Reason), "is neither a .py file nor executable") {
		t.Errorf("got %s (%s), want an error naming the kind", res.Outcome, deref(res.Reason))
	}
}

func TestUnknownBuiltin(t *testing.T) {
	res, _ := attestIn(t, "builtin:magic", map[string]string{}, Options{})
	if res.Outcome != Error || !strings.Contains(deref(res.Reason), `unknown built-in attester "builtin:magic"; known: builtin:fidelity, builtin:sql-equality`) {
		t.Errorf("got %s (%s)", res.Outcome, deref(res.Reason))
	}
}

func TestPythonAdapter(t *testing.T) {
	if !PythonAvailable() {
		t.Skip("python3 is not available")
	}
	cases := []struct {
		name, src string
		want      Outcome
		reason    string
		stderr    string
		details   string
	}{
		{
			name: "reference shape",
			src: "def attest(*, sanctioned_sql, receipt, claimed_value):\n" +
				"    ok = receipt['executed_sql'] == sanctioned_sql.strip() and float(receipt['result'][0]) == float(claimed_value)\n" +
				"    return {'ok': ok, 'reason': None if ok else 'mismatch', 'details': {'claimed': claimed_value}}\n",
			want: Pass, details: `{"claimed":12.0}`,
		},
		{
			name: "only some arguments",
			src:  "def attest(receipt):\n    return {'ok': 'executed_sql' in receipt, 'reason': None, 'details': {}}\n",
			want: Pass,
		},
		{
			name: "kwargs receive the whole request",
			src:  "def attest(**kw):\n    return {'ok': True, 'reason': None, 'details': {'keys': sorted(kw)}}\n",
			want: Pass,
			details: `{"keys":["claimed_value","computation","concept","okf_attest_version","parameters",` +
				`"receipt","receipt_fields","request","runtime","sanctioned_sql"]}`,
		},
		{
			name: "fail verdict",
			src:  "def attest(*, claimed_value, **_):\n    return {'ok': False, 'reason': 'nope', 'details': {}}\n",
			want: Fail, reason: "nope",
		},
		{
			name: "argument the request lacks",
			src:  "def attest(*, job_log):\n    return {'ok': True}\n",
			want: Error, reason: "exited with status 3", stderr: "attest() requires argument 'job_log'",
		},
		{
			name: "raises",
			src:  "def attest(**_):\n    return {'ok': 1 / 0}\n",
			want: Error, reason: "exited with status 1", stderr: "ZeroDivisionError",
		},
		{
			name: "returns a non-dict",
			src:  "def attest(**_):\n    return True\n",
			want: Error, stderr: "attest() returned bool, expected a dict",
		},
		{
			name: "dict without ok",
			src:  "def attest(**_):\n    return {'verdict': 'fine'}\n",
			want: Error, reason: `malformed verdict: the verdict has no "ok" field`,
		},
		{
			name: "no attest function",
			src:  "def check(**_):\n    return {'ok': True}\n",
			want: Error, stderr: "defines no function attest",
		},
		{
			name: "prints do not corrupt the verdict",
			src:  "print('hello from the attester')\ndef attest(**_):\n    print('and again')\n    return {'ok': True, 'reason': None, 'details': {}}\n",
			want: Pass,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, _ := attestIn(t, "a.py", map[string]string{"a.py": c.src}, Options{Timeout: 20 * time.Second})
			if res.Outcome != c.want {
				t.Fatalf("got %s (%s), stderr %q; want %s", res.Outcome, deref(res.Reason), res.StderrTail, c.want)
			}
			if !strings.Contains(deref(res.Reason), c.reason) || !strings.Contains(res.StderrTail, c.stderr) {
				t.Errorf("reason %q stderr %q; want them to contain %q and %q", deref(res.Reason), res.StderrTail, c.reason, c.stderr)
			}
			if c.details != "" && string(res.Details) != c.details {
				t.Errorf("details %s, want %s", res.Details, c.details)
			}
		})
	}
}
