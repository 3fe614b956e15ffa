package mcp

import "syscall"

// dieWithParent asks Linux to SIGKILL the provider when OpenWorker dies
// (PR_SET_PDEATHSIG; docs/mcp.md), so a killed app or `run` leaves no
// server behind adopted by init. Only the provider itself gets the
// signal: a process it started (npx's node) is in its process group, which
// Close ends, but a death of OpenWorker does not reach it. The signal is
// tied to the OS thread that forked; Go keeps its threads for the life of
// the process (only a goroutine that exits while locked to its thread ends
// one), so it holds as long as OpenWorker runs.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
