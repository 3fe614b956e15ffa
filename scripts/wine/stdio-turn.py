#!/usr/bin/env python3
"""Drives one turn with an approval through `openworker serve --stdio`
(docs/stdio-protocol.md), for scripts/test-windows-wine.sh.

    stdio-turn.py [--kill-at-elicitation] COWORKER PROMPT -- COMMAND...

COMMAND starts the server (e.g. wine64 openworker.exe serve --stdio ...).
It opens a session with COWORKER, sends PROMPT, answers the first
approval.required with allow_once, and checks: the turn completes, the call
was approved by the prompt and succeeded, the events came in the order the
protocol documents, and the server exits 0 once stdin closes. Prints the
session id on stdout; exits 1 with the reason (and the server's stderr) on
failure. Every wait is bounded (60 s), so a hang fails instead of blocking.

With --kill-at-elicitation it instead waits, after the approval, for the
call's elicitation.required (the call is then executing), kills the server
with SIGKILL (COMMAND must be the server itself, not a wrapper such as
timeout) and prints the invocation id: what a crash in the middle of a
call leaves in the journal.
"""
import json
import queue
import subprocess
import sys
import threading

TIMEOUT = 60


def main():
    args = sys.argv[1:]
    kill_at_elicitation = args[:1] == ["--kill-at-elicitation"]
    if kill_at_elicitation:
        args = args[1:]
    if len(args) < 4 or args[2] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    coworker, prompt, cmd = args[0], args[1], args[3:]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines = queue.Queue()
    errs = []
    threading.Thread(target=lambda: [lines.put(l) for l in proc.stdout] + [lines.put(None)], daemon=True).start()
    threading.Thread(target=lambda: errs.extend(proc.stderr), daemon=True).start()
    seen = []

    def fail(why):
        print("stdio-turn: FAIL: " + why, file=sys.stderr)
        print("events: " + " ".join(seen), file=sys.stderr)
        proc.kill()
        proc.wait()
        sys.stderr.write(b"".join(errs).decode("utf-8", "replace")[-4000:])
        sys.exit(1)

    def send(obj):
        proc.stdin.write((json.dumps(obj) + "\n").encode())
        proc.stdin.flush()

    def until(pred, what):
        while True:
            try:
                line = lines.get(timeout=TIMEOUT)
            except queue.Empty:
                fail("no %s within %d s" % (what, TIMEOUT))
            if line is None:
                fail("the server closed stdout before %s" % what)
            try:
                msg = json.loads(line)
            except ValueError:
                fail("not a JSON line: %r" % line[:200])
            ev = msg.get("event")
            if ev is not None:
                name = ev.get("type", "?")
                if name in ("tool.finished", "turn.finished"):
                    name += ":" + ev.get("status", "")
                seen.append(name)
                if ev.get("type") == "approval.required":
                    send({"id": "appr", "method": "approval.respond",
                          "params": {"approval_id": ev["approval_id"], "decision": "allow_once"}})
            if pred(msg):
                return msg

    send({"id": 1, "method": "session.open", "params": {"coworker": coworker}})
    opened = until(lambda m: m.get("id") == 1, "the session.open response")
    if "error" in opened:
        fail("session.open: %s" % opened["error"])
    sid = opened["result"]["session_id"]
    send({"id": 2, "method": "turn.send", "params": {"session_id": sid, "text": prompt}})
    if kill_at_elicitation:
        ev = until(lambda m: (m.get("event") or {}).get("type") == "elicitation.required"
                   or m.get("id") == 2, "elicitation.required")
        if "event" not in ev:
            fail("the turn ended before the call asked anything: %s" % ev)
        proc.kill()
        proc.wait()
        print(ev["event"]["question"]["invocation"])
        print("stdio-turn: killed at " + " ".join(seen), file=sys.stderr)
        return 0
    res = until(lambda m: m.get("id") == 2, "the turn.send response")
    if "error" in res:
        fail("turn.send: %s" % res["error"])
    if res["result"].get("status") != "completed":
        fail("turn status %r, want completed" % res["result"].get("status"))
    want = ["turn.started", "tool.proposed", "approval.required", "approval.decided", "tool.started",
            "tool.finished:succeeded", "turn.finished:completed"]
    got = [e for e in seen if e in want]
    if got != want:
        fail("events %s, want %s in that order" % (got, want))
    send({"id": 3, "method": "session.close", "params": {"session_id": sid}})
    closed = until(lambda m: m.get("id") == 3, "the session.close response")
    if closed.get("result") != {"closed": True}:
        fail("session.close: %s" % closed)
    proc.stdin.close()
    try:
        code = proc.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail("the server did not exit within %d s of stdin closing" % TIMEOUT)
    if code != 0:
        fail("the server exited %d after stdin closed, want 0" % code)
    print(sid)
    print("stdio-turn: " + " ".join(seen), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
