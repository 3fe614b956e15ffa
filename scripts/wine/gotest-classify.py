#!/usr/bin/env python3
"""Reads `go tool test2json` output of one test binary run under Wine and
sorts its failures, for scripts/test-windows-wine.sh:

    gotest-classify.py PKG CLEANUP_OUT < events.json

A failed test whose own output, apart from the framing lines, is nothing
but t.TempDir clean-up errors ("TempDir RemoveAll cleanup: ...", which Wine 8
produces with "unlinkat ...: Invalid function") is a clean-up failure: it
is appended to CLEANUP_OUT and does not count. Any other failed test is a
real failure (a test that also logged something else counts as real: no
failure is hidden). A test that failed only because a subtest failed is
judged by its subtests. Prints counts and the real failures with their
output; exits 1 when there is a real failure, 2 when there is none but
the binary itself failed (panic, timeout, no result: the tests it had
started and their output are printed), 0 otherwise.
"""
import json
import re
import sys

FRAMING = re.compile(r"^\s*(=== (RUN|PAUSE|CONT|NAME)|--- (FAIL|PASS|SKIP)|PASS$|FAIL$|ok\s|FAIL\s)")
CLEANUP = re.compile(r"TempDir RemoveAll cleanup: ")


def indent(line):
    return len(line) - len(line.lstrip(" "))


def only_cleanup(lines):
    """True when every line is a clean-up error or a continuation of one
    (a line indented deeper, right after it: testing indents the later
    lines of a multi-line message)."""
    base = None
    for line in lines:
        if CLEANUP.search(line):
            base = indent(line)
        elif base is None or indent(line) <= base:
            return False
    return True


def main():
    pkg, cleanup_out = sys.argv[1], sys.argv[2]
    out, status, pkg_out = {}, {}, []
    pkg_action = None
    for line in sys.stdin:
        try:
            ev = json.loads(line)
        except ValueError:
            pkg_out.append(line)
            continue
        test, action = ev.get("Test"), ev.get("Action")
        if action == "run" and test:
            status.setdefault(test, "run")
        if action == "output":
            if test:
                out.setdefault(test, []).append(ev.get("Output", ""))
            else:
                pkg_out.append(ev.get("Output", ""))
        elif action in ("pass", "fail", "skip"):
            if test:
                status[test] = action
            else:
                pkg_action = action
    failed = [t for t, a in status.items() if a == "fail"]
    leaves = [t for t in failed if not any(o.startswith(t + "/") for o in failed)]
    real, cleanup = [], []
    for t in leaves:
        own = [l for l in out.get(t, []) if l.strip() and not FRAMING.match(l)]
        if own and only_cleanup(own):
            cleanup.append(t)
        else:
            real.append(t)
    counts = {a: sum(1 for v in status.values() if v == a) for a in ("pass", "fail", "skip")}
    print("%s: %d passed, %d skipped, %d failed (%d of them only the t.TempDir clean-up)"
          % (pkg, counts["pass"], counts["skip"], len(leaves), len(cleanup)))
    with open(cleanup_out, "a") as f:
        for t in cleanup:
            f.write("%s %s\n" % (pkg, t))
    for t in real:
        print("--- real failure: %s %s" % (pkg, t))
        sys.stdout.write("".join(out.get(t, []))[-3000:])
    broken = pkg_action is None or (pkg_action == "fail" and not failed)
    if broken:
        print("--- the test binary of %s failed without a test result (panic, timeout or crash):" % pkg)
        sys.stdout.write("".join(pkg_out)[-3000:])
        for t in [t for t, a in status.items() if a == "run"]:
            print("--- started, no result: %s %s" % (pkg, t))
            sys.stdout.write("".join(out.get(t, []))[-3000:])
    if real:
        return 1
    return 2 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
