package mcp

import (
	"slices"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/mcp/oauth/oauthtest"
)

// indexOf is the position of the first request want in reqs, -1 when none.
func indexOf(reqs []string, want string) int { return slices.Index(reqs, want) }

// docs/mcp.md#discovery, RFC 9728: a server whose 401 names no resource
// metadata and that publishes it only at its origin's root is found
// there, after the path-inserted place; the grant is for the resource the
// root document names (the origin).
func TestSignInResourceMetadataAtRoot(t *testing.T) {
	r := newSignInRigWith(t, oauthtest.Options{}, oauthtest.MCPOptions{PRM: "root"})
	p, err := r.connect(t, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if out, err := callWhoami(t, p); err != nil || !strings.Contains(out.Text, "hello") {
		t.Fatalf("call = %q, %v", out.Text, err)
	}
	reqs := r.srv.Requests()
	path, root := indexOf(reqs, "GET /.well-known/oauth-protected-resource/mcp"), indexOf(reqs, "GET /.well-known/oauth-protected-resource")
	if path < 0 || root < 0 || path > root {
		t.Fatalf("requests %q: want the path-inserted place, then the root", reqs)
	}
	origin := strings.TrimSuffix(r.srv.URL, "/mcp")
	if g, _ := r.store.Load(r.srv.URL); g == nil || g.Resource != origin || r.as.Resource != origin {
		t.Fatalf("grant %+v, resource asked %q; want %q", g, r.as.Resource, origin)
	}
}

// The authorization server's metadata is looked for in the order of the
// MCP specification: for an issuer with a path, RFC 8414 with the path
// inserted, OpenID Connect with the path inserted, OpenID Connect with
// the path appended, and never at the root; for one without, RFC 8414
// then OpenID Connect.
func TestSignInAuthServerMetadataOrder(t *testing.T) {
	t.Run("issuer with a path", func(t *testing.T) {
		r := newSignInRig(t, oauthtest.Options{Prefix: "/tenant1", MetadataPaths: []string{"/tenant1/.well-known/openid-configuration"}})
		if _, err := r.connect(t, nil); err != nil {
			t.Fatalf("connect: %v", err)
		}
		var meta []string
		for _, q := range r.as.Requests() {
			if strings.Contains(q, "/.well-known/") {
				meta = append(meta, q)
			}
		}
		want := []string{
			"GET /.well-known/oauth-authorization-server/tenant1",
			"GET /.well-known/openid-configuration/tenant1",
			"GET /tenant1/.well-known/openid-configuration",
		}
		if !slices.Equal(meta, want) {
			t.Fatalf("metadata requests %q, want %q", meta, want)
		}
		if g, _ := r.store.Load(r.srv.URL); g == nil || g.Issuer != r.as.Issuer {
			t.Fatalf("grant %+v, want issuer %s", g, r.as.Issuer)
		}
	})
	t.Run("issuer without a path", func(t *testing.T) {
		r := newSignInRig(t, oauthtest.Options{MetadataPaths: []string{"/.well-known/openid-configuration"}})
		if _, err := r.connect(t, nil); err != nil {
			t.Fatalf("connect: %v", err)
		}
		reqs := r.as.Requests()
		if len(reqs) < 2 || reqs[0] != "GET /.well-known/oauth-authorization-server" || reqs[1] != "GET /.well-known/openid-configuration" {
			t.Fatalf("requests %q", reqs)
		}
	})
}

// MCP 2025-03-26: a server that publishes no resource metadata is its
// own authorization server; its metadata at the origin is used, with the
// issuer and endpoints it names.
func TestSignIn20250326Metadata(t *testing.T) {
	r := newSignInRigWith(t, oauthtest.Options{}, oauthtest.MCPOptions{PRM: "none", Legacy: true})
	p, err := r.connect(t, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if _, err := callWhoami(t, p); err != nil {
		t.Fatal(err)
	}
	if i := indexOf(r.srv.Requests(), "GET /.well-known/oauth-authorization-server"); i < 0 {
		t.Fatalf("no metadata asked at the server's origin: %q", r.srv.Requests())
	}
	if g, _ := r.store.Load(r.srv.URL); g == nil || g.Issuer != r.as.Issuer || g.Resource != r.srv.URL {
		t.Fatalf("grant %+v", g)
	}
}

// MCP 2025-03-26 with no metadata at all: the default endpoints at the
// server's origin, /register, /authorize and /token.
func TestSignIn20250326DefaultEndpoints(t *testing.T) {
	r := newSignInRigWith(t, oauthtest.Options{NoMetadata: true}, oauthtest.MCPOptions{PRM: "none", Legacy: true})
	p, err := r.connect(t, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if _, err := callWhoami(t, p); err != nil {
		t.Fatal(err)
	}
	reqs := r.srv.Requests()
	for _, want := range []string{"POST /register", "GET /authorize", "POST /token"} {
		if indexOf(reqs, want) < 0 {
			t.Errorf("the server's origin got no %s: %q", want, reqs)
		}
	}
	if got := r.prompts(); len(got) != 1 || got[0].SignInHost != hostOf(r.srv.URL) {
		t.Fatalf("prompts %+v, want one sign-in at the server's own host", got)
	}
}

// RFC 9728 §3.3: resource metadata that names another resource is
// refused, before anyone is asked and before the authorization server is
// reached.
func TestSignInRefusesResourceOfAnotherServer(t *testing.T) {
	r := newSignInRigWith(t, oauthtest.Options{}, oauthtest.MCPOptions{Resource: "https://evil.example.com/mcp"})
	_, err := r.connect(t, nil)
	if err == nil || !strings.Contains(err.Error(), `is for the resource "https://evil.example.com/mcp", not for this server`) {
		t.Fatalf("err = %v", err)
	}
	if len(r.prompts()) != 0 || len(r.as.Requests()) != 0 {
		t.Fatalf("prompts %d, authorization server requests %q", len(r.prompts()), r.as.Requests())
	}
}
