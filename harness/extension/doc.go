// Package extension installs, lists and removes MCP extensions: .mcpb
// (formerly .dxt) bundles of a local MCP server, as Claude Desktop and
// the MCP Registry distribute them (docs/extensions.md).
//
// An installed extension lives in the Store's folder
// (<config dir>/OpenWorker/extensions):
//
//	extensions/
//	  <name>/
//	    installed.json     the Record: version, namespace, non-sensitive user_config values
//	    <version>/         the unpacked bundle (manifest.json, the server)
//
// Sensitive user_config values are kept in a SecretStore (the OS
// keychain), never in installed.json, a log or the journal. The archive
// format and its checks are package archive; manifest.json is package
// manifest.
package extension
