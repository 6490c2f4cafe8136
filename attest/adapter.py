# okf's Python attester adapter (D18). It reads one request JSON on stdin, loads the attester file
# named by argv[1], calls its attest() with the keyword arguments the function's signature accepts
# (every request key, plus "request" for the whole document; all of them when it takes **kwargs),
# and writes the returned dict as the verdict JSON on stdout. Anything the attester prints goes to
# stderr, so it cannot corrupt the verdict.
import importlib.util
import inspect
import json
import os
import sys


def fail(msg, code):
    sys.stderr.write("okf adapter: " + msg + "\n")
    sys.stderr.flush()
    return code


def main():
    if len(sys.argv) != 2:
        return fail("usage: adapter.py ATTESTER.py", 2)
    path = sys.argv[1]
    out = sys.stdout
    sys.stdout = sys.stderr
    try:
        request = json.load(sys.stdin)
    except ValueError as e:
        return fail("cannot read the request JSON: %s" % e, 2)
    if not isinstance(request, dict):
        return fail("the request is not a JSON object", 2)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec = importlib.util.spec_from_file_location("okf_attester", path)
    if spec is None or spec.loader is None:
        return fail("cannot load %r as a Python module" % path, 3)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, "attest", None)
    if not callable(fn):
        return fail("%s defines no function attest" % os.path.basename(path), 3)
    available = dict(request)
    available["request"] = request
    params = list(inspect.signature(fn).parameters.values())
    if any(p.kind == p.VAR_KEYWORD for p in params):
        kwargs = available
    else:
        kwargs = {}
        for p in params:
            if p.kind == p.VAR_POSITIONAL:
                continue
            if p.kind == p.POSITIONAL_ONLY:
                if p.default is p.empty:
                    return fail("attest() takes positional-only argument %r; okf passes keyword arguments only" % p.name, 3)
                continue
            if p.name in available:
                kwargs[p.name] = available[p.name]
            elif p.default is p.empty:
                return fail("attest() requires argument %r, which the request does not carry (it has: %s)"
                            % (p.name, ", ".join(sorted(available))), 3)
    verdict = fn(**kwargs)
    if not isinstance(verdict, dict):
        return fail("attest() returned %s, expected a dict {ok, reason, details}" % type(verdict).__name__, 4)
    text = json.dumps(verdict, default=str, allow_nan=False, sort_keys=True)
    out.write(text + "\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
