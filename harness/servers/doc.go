// Package servers reads and writes the files that name MCP servers and A2A
// agents (docs/servers.md): the product's servers.json and the files of
// other MCP clients (Claude Desktop, VS Code, Cursor, Cline, Roo Code,
// Windsurf, Claude Code, Amazon Q), each by that format's own rules.
//
// ReadConfig detects a file's format from its name, then its content
// (ConfigFormat), and reads each entry into a ConfigEntry whose Server is a
// plain tool.MCPServer: the transport decided (an entry of another client
// without "type" is stdio when it has "command", streamable HTTP or SSE
// when it has a URL, by the format's rules), ${env:…}, ${input:…} and the
// other variables substituted, the secrets found (substituted values,
// credentials in arguments, header values, URL passwords and query
// values) listed in Server.Secrets, and its oauth, sandbox and timeout
// blocks read. Package harness/mcp starts what an entry names and reads no
// file; harness/a2a reaches the agents (transport "a2a").
//
// A problem of one entry is that entry's Err (a *jsonfile.Error naming the
// file, line, column and the fix in words); the other entries are read as
// usual. RegisterServersFile registers a file's entries in a
// tool.Registry (a bad entry is a broken provider there, not a
// registration error).
//
// Inputs (${input:ID}) are asked through ConfigOptions.Inputs at most once
// per read; KeychainInputs keeps the answers in the OS keychain.
// ClientConfigs lists where each client keeps its file; PlanImport,
// ImportPlan.Write and ImportKept copy another client's entries into
// servers.json (docs/servers.md#import), and MarshalServersFile and
// WriteServersFile write entries of any format in the product's form;
// MarshalShared writes them with every literal credential replaced by an
// input, for a file given to someone else (docs/import-agents.md#export).
// ParseConfig reads text that is not in a file of its own (a Goose
// recipe's extensions) as ReadConfig reads a file.
//
// The package starts no process and opens no connection.
package servers
