package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/mcp/mcptest"
)

// uiProvider connects to mcptest.UIServer over streamable HTTP on 127.0.0.1.
func uiProvider(t *testing.T) *Provider {
	t.Helper()
	return kitProvider(t)(mcptest.ServeUI())
}

// TestUICapabilityAndCatalog: the server sees the MCP Apps extension in the
// client's capabilities; the catalog reads _meta.ui (and the flat key),
// visibility, and ignores a view that is not ui://.
func TestUICapabilityAndCatalog(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := uiProvider(t)
	out, err := p.CallTool(ctx, "caps", json.RawMessage(`{}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	var caps struct {
		Extensions map[string]struct {
			MIMETypes []string `json:"mimeTypes"`
		} `json:"extensions"`
	}
	if err := json.Unmarshal([]byte(out.Text), &caps); err != nil {
		t.Fatalf("caps %q: %v", out.Text, err)
	}
	if got := caps.Extensions[UIExtension].MIMETypes; len(got) != 1 || got[0] != "text/html;profile=mcp-app" {
		t.Fatalf("the server saw extensions %+v in %s", caps.Extensions, out.Text)
	}

	list, err := p.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]RemoteTool{}
	for _, rt := range list {
		by[rt.Name] = rt
	}
	if u := by["show"].UI; u == nil || u.ResourceURI != "ui://kit/view.html" || len(u.Visibility) != 0 || !u.VisibleTo("model") || !u.VisibleTo("app") {
		t.Errorf("show UI = %+v", u)
	}
	if u := by["bump"].UI; u == nil || u.VisibleTo("model") || !u.VisibleTo("app") {
		t.Errorf("bump UI = %+v", u)
	}
	if u := by["model_only"].UI; u == nil || !u.VisibleTo("model") || u.VisibleTo("app") {
		t.Errorf("model_only UI = %+v", u)
	}
	if u := by["flat_show"].UI; u == nil || u.ResourceURI != "ui://kit/view.html" {
		t.Errorf("flat_show UI = %+v", u)
	}
	if h := by["http_show"]; h.UI != nil || !strings.Contains(h.UIProblem, `"https://example.com/view.html", not a ui:// URI`) {
		t.Errorf("http_show UI = %+v, problem %q", h.UI, h.UIProblem)
	}
	if d := by["show"].Descriptor("kit"); d.UI == nil || d.UI.ResourceURI != "ui://kit/view.html" {
		t.Errorf("descriptor UI = %+v", d.UI)
	}
	if d := by["peek"].Descriptor("kit"); d.UI != nil {
		t.Errorf("peek has a UI: %+v", d.UI)
	}
	raw, _ := json.Marshal(by["peek"].Descriptor("kit"))
	if strings.Contains(string(raw), `"ui"`) {
		t.Errorf("a descriptor without a view marshals a ui key: %s", raw)
	}
}

// TestReadUIResource: the good page with its CSP, permissions and border;
// a blob; the 2 MiB bound (exactly 2 MiB passes, one byte more does not);
// a wrong MIME type; bad CSP entries; two items; a missing resource.
func TestReadUIResource(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := uiProvider(t)

	r, err := p.ReadUIResource(ctx, "ui://kit/view.html")
	if err != nil {
		t.Fatal(err)
	}
	if string(r.HTML) != mcptest.UIPage || r.Size != len(mcptest.UIPage) || !strings.HasPrefix(r.Digest, "sha256:") || len(r.Digest) != 71 {
		t.Errorf("view = %q size %d digest %q", r.HTML, r.Size, r.Digest)
	}
	if strings.Join(r.CSP.Connect, " ") != "https://api.example.com wss://live.example.com:8443" ||
		strings.Join(r.CSP.Resource, " ") != "https://*.cdn.example.com http://localhost:5173" || r.CSP.Frame != nil || r.CSP.BaseURI != nil {
		t.Errorf("CSP = %+v", r.CSP)
	}
	if strings.Join(r.Permissions, ",") != "camera,clipboardWrite" || r.PrefersBorder == nil || !*r.PrefersBorder {
		t.Errorf("permissions %v, prefersBorder %v", r.Permissions, r.PrefersBorder)
	}

	b, err := p.ReadUIResource(ctx, "ui://kit/blob.html")
	if err != nil || string(b.HTML) != mcptest.UIPage || b.Digest != r.Digest {
		t.Errorf("blob = %q %q, %v", b.HTML, b.Digest, err)
	}
	if e, err := p.ReadUIResource(ctx, "ui://kit/exact.html"); err != nil || e.Size != MaxUIResourceBytes {
		t.Errorf("exactly 2 MiB = %d, %v", e.Size, err)
	}

	refused := func(uri, code, want string) {
		t.Helper()
		_, err := p.ReadUIResource(ctx, uri)
		var ue *UIResourceError
		if !errors.As(err, &ue) || ue.Code != code || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), uri) {
			t.Errorf("%s: %v, want %s %q", uri, err, code, want)
		}
	}
	refused("ui://kit/big.html", "too_large", "it is 2097153 bytes (2.0 MB), over the 2 MB bound")
	refused("ui://kit/text.html", "not_html", "it is text/plain, not text/html;profile=mcp-app")
	refused("ui://kit/two.html", "bad_resource", "2 content items")
	refused("ui://kit/missing.html", "missing", `the server "kit" could not read it`)
	refused("https://example.com/x", "bad_resource", "not a ui:// URI")
	for k, v := range mcptest.BadCSP {
		q, _ := json.Marshal(v)
		refused("ui://kit/csp-"+k+".html", "bad_csp", "_meta.ui.csp.connectDomains: "+string(q)+" is not an origin")
	}
}

// TestCheckUIOrigin: the origins a view may declare, and some it may not.
func TestCheckUIOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://a.com": "https://a.com", "HTTPS://A.Example.COM:443": "https://a.example.com:443", "https://*.a.com": "https://*.a.com",
		"wss://rt.a.com": "wss://rt.a.com", "http://localhost:3000": "http://localhost:3000", "http://127.0.0.1": "http://127.0.0.1",
	} {
		if got, err := CheckUIOrigin(in); err != nil || got != want {
			t.Errorf("CheckUIOrigin(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"*", "https://*", "https://a.com;", "https://a.com; script-src *", "'unsafe-eval'", "'unsafe-inline'", "data:", "blob:",
		"https://a.com/", "https://a.com/x", "http://a.com", "ws://localhost", "https://a.com:0", "https://a.com:99999", "https://a.com:80x",
		"https://a b.com", "https://a.com\n", "https://-a.com", "https://a.*.com", "https://user@a.com", "https://a.com?x", "https://"} {
		if got, err := CheckUIOrigin(in); err == nil || !errors.Is(err, ErrBadOrigin) {
			t.Errorf("CheckUIOrigin(%q) = %q, %v; want refused", in, got, err)
		}
	}
}
