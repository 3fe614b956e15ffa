package servers

import (
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// oauthEntry reads a servers.json entry's "oauth" (docs/servers.md#oauth):
// {"client_id": "...", "scopes": ["...", ...]}, both optional, nothing
// else; only for a streamable HTTP server. Each problem is an error at its
// file:line:col with the fix.
func (rd *reader) oauthEntry(f *jsonfile.Field, transport, name string) (*tool.MCPOAuth, error) {
	if transport != tool.TransportStreamableHTTP {
		return nil, f.Err(rd.path, fmt.Sprintf("server %q has \"oauth\", but sign-in is only for streamable_http servers; its transport is %s", name, transport), `remove "oauth"`)
	}
	v := f.Value
	if v.Kind != jsonfile.Object {
		return nil, v.Err(fmt.Sprintf("\"oauth\" of server %q must be an object, not %s", name, v.Kind), `write it like "oauth": {"client_id": "my-client", "scopes": ["read"]}`)
	}
	o := &tool.MCPOAuth{}
	for _, kf := range v.Fields {
		switch kf.Key {
		case "client_id":
			if kf.Value.Kind != jsonfile.String || strings.TrimSpace(kf.Value.Str) == "" {
				return nil, kf.Value.Err(fmt.Sprintf("\"oauth.client_id\" of server %q must be a non-empty string", name), "write the client id the authorization server's owner gave you, or remove the key to register OpenWorker by itself")
			}
			o.ClientID = kf.Value.Str
		case "scopes":
			if kf.Value.Kind != jsonfile.Array {
				return nil, kf.Value.Err(fmt.Sprintf("\"oauth.scopes\" of server %q must be an array of strings, not %s", name, kf.Value.Kind), `write it like "scopes": ["read", "write"]`)
			}
			for _, it := range kf.Value.Items {
				if it.Kind != jsonfile.String || it.Str == "" || strings.ContainsAny(it.Str, " \t\n\"\\") {
					return nil, it.Err(fmt.Sprintf("a scope in \"oauth.scopes\" of server %q must be a non-empty string without spaces, quotes or backslashes", name), "write one scope per string")
				}
				o.Scopes = append(o.Scopes, it.Str)
			}
		default:
			return nil, kf.Err(rd.path, fmt.Sprintf("unknown key %q in \"oauth\" of server %q", kf.Key, name), `"oauth" holds only "client_id" and "scopes"`)
		}
	}
	return o, nil
}

// oauthProduct is "oauth" as the product's servers.json writes it.
func oauthProduct(o *tool.MCPOAuth) ordered {
	var obj ordered
	if o.ClientID != "" {
		obj = append(obj, field{"client_id", o.ClientID})
	}
	if len(o.Scopes) > 0 {
		s := make([]any, len(o.Scopes))
		for i, v := range o.Scopes {
			s[i] = v
		}
		obj = append(obj, field{"scopes", s})
	}
	return obj
}
