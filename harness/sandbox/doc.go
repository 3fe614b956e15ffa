// Package sandbox confines a stdio MCP provider to an execution boundary
// the operating system enforces (docs/sandbox.md): the folders it may read
// and write and the network it may reach, inherited by every process it
// starts.
//
// A placement is a tool.Sandbox: plain data in the partner SDK, what a
// servers.json "sandbox" value or an extension's setting says, with
// ${variables}. This package reads it: CheckTemplate and ParseEndpoint
// check what is written, Supported whether this system can enforce it,
// Expand turns it into Rules (absolute paths) for one start, and Prepare
// rewrites an *exec.Cmd so that the program runs inside them:
//
//   - Linux: the host executable re-runs itself as a launcher (this
//     package's init, see launcher.go) that applies Landlock filesystem
//     and TCP rules and a seccomp filter on socket families, sets
//     no-new-privs and executes the program.
//   - macOS: sandbox-exec with a generated SBPL profile (sbpl.go).
//   - Windows: a restricted low-integrity token (prepare_windows.go),
//     which confines writes only: a placement that confines reads or
//     the network is refused there.
//
// A placement the system cannot enforce is refused before anything runs:
// a provider never falls back to running unconfined. Native tools are
// trusted host code and are never sandboxed (docs/partner-tools.md).
package sandbox
