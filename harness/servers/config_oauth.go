package servers

import (
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// oauthEntry reads a servers.json entry's "oauth" (docs/servers.md#oauth):
// {"client_id": "...", "client_secret": "${input:ID}", "grant_type":
// "client_credentials", "scopes": ["...", ...]}, each optional, nothing
// else; only for a streamable HTTP server. The secret is a reference to
// an environment variable or an input, never the secret itself; it is
// returned as its template (substituted by expandInto). Each problem is
// an error at its file:line:col with the fix.
func (rd *reader) oauthEntry(f *jsonfile.Field, transport, name string) (*tool.MCPOAuth, *tval, error) {
	if transport != tool.TransportStreamableHTTP {
		return nil, nil, f.Err(rd.path, fmt.Sprintf("server %q has \"oauth\", but sign-in is only for streamable_http servers; its transport is %s", name, transport), `remove "oauth"`)
	}
	v := f.Value
	if v.Kind != jsonfile.Object {
		return nil, nil, v.Err(fmt.Sprintf("\"oauth\" of server %q must be an object, not %s", name, v.Kind), `write it like "oauth": {"client_id": "my-client", "scopes": ["read"]}`)
	}
	o := &tool.MCPOAuth{}
	var secret *tval
	var grant *jsonfile.Field
	for _, kf := range v.Fields {
		switch kf.Key {
		case "client_id":
			if kf.Value.Kind != jsonfile.String || strings.TrimSpace(kf.Value.Str) == "" {
				return nil, nil, kf.Value.Err(fmt.Sprintf("\"oauth.client_id\" of server %q must be a non-empty string", name), "write the client id the authorization server's owner gave you, or remove the key to register OpenWorker by itself")
			}
			o.ClientID = kf.Value.Str
		case "client_secret":
			t, err := rd.clientSecret(kf, name)
			if err != nil {
				return nil, nil, err
			}
			secret = t
		case "grant_type":
			if kf.Value.Kind != jsonfile.String || (kf.Value.Str != "authorization_code" && kf.Value.Str != "client_credentials") {
				return nil, nil, kf.Value.Err(fmt.Sprintf("\"oauth.grant_type\" of server %q must be \"authorization_code\" (a person signs in, the default) or \"client_credentials\" (the client's own credentials, no person)", name), `write "grant_type": "client_credentials", or remove the key`)
			}
			if kf.Value.Str == "client_credentials" {
				o.GrantType = kf.Value.Str
			}
			grant = kf
		case "scopes":
			if kf.Value.Kind != jsonfile.Array {
				return nil, nil, kf.Value.Err(fmt.Sprintf("\"oauth.scopes\" of server %q must be an array of strings, not %s", name, kf.Value.Kind), `write it like "scopes": ["read", "write"]`)
			}
			for _, it := range kf.Value.Items {
				if it.Kind != jsonfile.String || it.Str == "" || strings.ContainsAny(it.Str, " \t\n\"\\") {
					return nil, nil, it.Err(fmt.Sprintf("a scope in \"oauth.scopes\" of server %q must be a non-empty string without spaces, quotes or backslashes", name), "write one scope per string")
				}
				o.Scopes = append(o.Scopes, it.Str)
			}
		default:
			return nil, nil, kf.Err(rd.path, fmt.Sprintf("unknown key %q in \"oauth\" of server %q", kf.Key, name), `"oauth" holds only "client_id", "client_secret", "grant_type" and "scopes"`)
		}
	}
	if secret != nil && o.ClientID == "" {
		return nil, nil, secret.n.Err(fmt.Sprintf("\"oauth.client_secret\" of server %q needs \"client_id\": a secret belongs to a pre-registered client", name), `add "client_id": the id the authorization server's owner gave you with the secret`)
	}
	if o.GrantType == "client_credentials" && (o.ClientID == "" || secret == nil) {
		return nil, nil, grant.Value.Err(fmt.Sprintf("\"oauth.grant_type\" \"client_credentials\" of server %q needs \"client_id\" and \"client_secret\"", name), `add the client's id, and its secret as "client_secret": "${input:ID}" or "${VAR}"`)
	}
	return o, secret, nil
}

// clientSecret reads "oauth.client_secret": a string made of references
// only (an environment variable or an input), so the file never holds
// the secret.
func (rd *reader) clientSecret(kf *jsonfile.Field, name string) (*tval, error) {
	fix := `write "client_secret": "${input:ID}" with {"type": "promptString", "id": "ID", "description": "...", "password": true} in "inputs" (asked once, kept in the OS keychain), or "${VAR}" for an environment variable`
	if kf.Value.Kind != jsonfile.String {
		return nil, kf.Value.Err(fmt.Sprintf("\"oauth.client_secret\" of server %q must be a string that references the secret, not %s", name, kf.Value.Kind), fix)
	}
	t, err := rd.tval(kf.Value)
	if err != nil {
		return nil, err
	}
	if !t.t.referencesOnly() {
		return nil, kf.Value.Err(fmt.Sprintf("\"oauth.client_secret\" of server %q holds the secret itself (or text besides a reference); a secret is never written in a servers file", name), fix)
	}
	return &t, nil
}

// oauthProduct is "oauth" as the product's servers.json writes it: the
// secret as the reference it was written as.
func (raw *rawEntry) oauthProduct() (ordered, error) {
	o := raw.oauth
	var obj ordered
	if o.ClientID != "" {
		obj = append(obj, field{"client_id", o.ClientID})
	}
	if raw.oauthSecret != nil {
		ref, err := raw.text(*raw.oauthSecret)
		if err != nil {
			return nil, err
		}
		obj = append(obj, field{"client_secret", ref})
	}
	if o.GrantType != "" {
		obj = append(obj, field{"grant_type", o.GrantType})
	}
	if len(o.Scopes) > 0 {
		s := make([]any, len(o.Scopes))
		for i, v := range o.Scopes {
			s[i] = v
		}
		obj = append(obj, field{"scopes", s})
	}
	return obj, nil
}
