package oauth

import (
	"encoding/json"
	"net/url"
	"os"
	"slices"
	"testing"
)

// docs/mcp.md#client-id-metadata-document: the document shipped in the
// repository is the one DefaultClientMetadataURL serves: its client_id is
// that URL, and it describes the client a sign-in is: a public native
// client redirected to the loopback listener's /callback, with refresh
// tokens.
func TestShippedClientMetadataDocument(t *testing.T) {
	raw, err := os.ReadFile("../../../docs/oauth/client-metadata.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ClientID                string   `json:"client_id"`
		RedirectURIs            []string `json:"redirect_uris"`
		GrantTypes              []string `json:"grant_types"`
		ResponseTypes           []string `json:"response_types"`
		TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	lb, err := listenLoopback()
	if err != nil {
		t.Fatal(err)
	}
	defer lb.close()
	// The redirect URI a sign-in sends, without the port the system picked
	// (RFC 8252 §7.3: any port of a loopback redirect URI).
	u, err := url.Parse(lb.redirectURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = u.Hostname()
	redirect := u.String()
	if doc.ClientID != DefaultClientMetadataURL || !slices.Contains(doc.RedirectURIs, redirect) || doc.TokenEndpointAuthMethod != "none" ||
		!slices.Contains(doc.GrantTypes, "refresh_token") || !slices.Equal(doc.ResponseTypes, []string{"code"}) {
		t.Fatalf("docs/oauth/client-metadata.json = %+v; want client_id %s, redirect %s, a public client with refresh tokens", doc, DefaultClientMetadataURL, redirect)
	}
}
