package mcp

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServerInfo is what a server says about itself in the MCP initialize
// handshake: its serverInfo and instructions, every string with the
// server's secrets redacted (docs/mcp.md#secrets). Fields the server did
// not send are empty.
type ServerInfo struct {
	Name        string // serverInfo.name
	Title       string // serverInfo.title
	Version     string // serverInfo.version
	Description string // serverInfo.description
	WebsiteURL  string // serverInfo.websiteUrl
	// Instructions are the server's hints on using it (the specification
	// suggests a client may give them to the model; OpenWorker puts them in
	// the system prompt, fenced and bounded: docs/mcp.md#instructions).
	Instructions string
}

// serverInfo redacts the handshake's result; nil gives the zero value.
func (r redactor) serverInfo(res *sdk.InitializeResult) ServerInfo {
	if res == nil {
		return ServerInfo{}
	}
	info := ServerInfo{Instructions: r.text(res.Instructions)}
	if s := res.ServerInfo; s != nil {
		info.Name, info.Title, info.Version = r.text(s.Name), r.text(s.Title), r.text(s.Version)
		info.Description, info.WebsiteURL = r.text(s.Description), r.text(s.WebsiteURL)
	}
	return info
}
