package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"regexp"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCP Apps (docs/mcp-apps.md).
const (
	// UIExtension is the MCP Apps extension every client declares in its
	// capabilities (docs/mcp-apps.md#capability).
	UIExtension = "io.modelcontextprotocol/ui"
	// UIMIMEType is the only MIME type of a UI resource shown
	// (docs/mcp-apps.md#resources).
	UIMIMEType = "text/html;profile=mcp-app"
	// MaxUIResourceBytes bounds a UI resource's HTML, after base64 decoding
	// of a blob: 2 MiB (docs/mcp-apps.md#resources).
	MaxUIResourceBytes = 2 << 20
	// UIResourceTimeout bounds one resources/read of a UI resource.
	UIResourceTimeout = 30 * time.Second
)

// uiCapability adds the MCP Apps extension to c (docs/mcp-apps.md#capability):
// extensions["io.modelcontextprotocol/ui"] = {"mimeTypes":["text/html;profile=mcp-app"]}.
func uiCapability(c *sdk.ClientCapabilities) *sdk.ClientCapabilities {
	c.AddExtension(UIExtension, map[string]any{"mimeTypes": []string{UIMIMEType}})
	return c
}

// UIResource is a tool's view as read from its server and checked
// (docs/mcp-apps.md#resources). HTML is never journaled: only URI, Size and
// Digest are.
type UIResource struct {
	URI      string // ui://…
	MIMEType string // as the server sent it; its type is text/html;profile=mcp-app
	HTML     []byte // the page, at most MaxUIResourceBytes
	Size     int    // len(HTML)
	Digest   string // "sha256:<hex>" of HTML
	// CSP is the origins the view declared, each checked
	// (docs/mcp-apps.md#csp).
	CSP UICSP
	// Permissions the view asked for, of "camera", "microphone",
	// "geolocation", "clipboardWrite" (unknown ones dropped), sorted.
	Permissions []string
	// PrefersBorder is the view's _meta.ui.prefersBorder; nil when not said.
	PrefersBorder *bool
}

// UICSP is the origins a view declared in _meta.ui.csp (connectDomains,
// resourceDomains, frameDomains, baseUriDomains). Each is
// "https://host[:port]" (the host may start with "*."),
// "wss://host[:port]", or "http://localhost[:port]" / "http://127.0.0.1[:port]"
// (docs/mcp-apps.md#csp). Empty means none.
type UICSP struct {
	Connect  []string `json:"connect"`
	Resource []string `json:"resource"`
	Frame    []string `json:"frame"`
	BaseURI  []string `json:"base_uri"`
}

// UIResourceError is why a UI resource was refused: Code is one of
// "too_large", "not_html", "bad_csp", "bad_resource" (not one HTML item for
// the URI, or a bad encoding), "missing" (the server has no such resource
// or failed to read it). Its message names the URI, what was found and the
// rule (docs/mcp-apps.md#refusals).
type UIResourceError struct {
	URI  string
	Code string
	Msg  string
}

func (e *UIResourceError) Error() string { return "the app view " + e.URI + ": " + e.Msg }

var knownPermissions = []string{"camera", "clipboardWrite", "geolocation", "microphone"}

// ReadUIResource reads the ui:// resource uri (resources/read, within
// UIResourceTimeout) and checks it (docs/mcp-apps.md#resources): exactly one
// content item for uri, of MIME type text/html;profile=mcp-app (compared
// case-insensitively, spaces allowed), at most MaxUIResourceBytes of HTML
// (a blob is base64-decoded first), and a _meta.ui whose CSP origins all
// pass the rule of docs/mcp-apps.md#csp. A refusal is a *UIResourceError.
func (p *Provider) ReadUIResource(ctx context.Context, uri string) (UIResource, error) {
	out, err := p.readUIResource(ctx, uri)
	return out, p.secrets.err(err)
}

func (p *Provider) readUIResource(ctx context.Context, uri string) (UIResource, error) {
	if !strings.HasPrefix(uri, "ui://") {
		return UIResource{}, &UIResourceError{uri, "bad_resource", "not a ui:// URI; only ui:// resources are app views"}
	}
	if !p.Alive() {
		return UIResource{}, p.deadError("resources/read")
	}
	ctx, cancel := context.WithTimeoutCause(ctx, UIResourceTimeout, fmt.Errorf("no answer within %v", UIResourceTimeout))
	defer cancel()
	var res *sdk.ReadResourceResult
	err := p.request(ctx, "resources/read", false, func(ctx context.Context, cs *sdk.ClientSession) (err error) {
		res, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return UIResource{}, p.callError(ctx, "resources/read "+uri, err)
		}
		return UIResource{}, &UIResourceError{uri, "missing", fmt.Sprintf("the server %q could not read it: %v", p.srv.Namespace, p.secrets.text(err.Error()))}
	}
	return checkUIResource(uri, res)
}

// checkUIResource applies the rules of ReadUIResource to a resources/read result.
func checkUIResource(uri string, res *sdk.ReadResourceResult) (UIResource, error) {
	var item *sdk.ResourceContents
	n := 0
	for _, c := range res.Contents {
		if c != nil && c.URI == uri {
			item = c
			n++
		}
	}
	if n != 1 {
		return UIResource{}, &UIResourceError{uri, "bad_resource", fmt.Sprintf("the server sent %d content items for it (of %d in all); exactly one is shown", n, len(res.Contents))}
	}
	if !isUIMIME(item.MIMEType) {
		got := item.MIMEType
		if got == "" {
			got = "no MIME type"
		}
		return UIResource{}, &UIResourceError{uri, "not_html", fmt.Sprintf("it is %s, not %s; only HTML app views are shown", clip(got, 100), UIMIMEType)}
	}
	html := []byte(item.Text)
	if item.Blob != nil { // the SDK has base64-decoded it
		html = item.Blob
	}
	if len(html) > MaxUIResourceBytes {
		return UIResource{}, &UIResourceError{uri, "too_large", fmt.Sprintf("it is %s, over the %s bound", sizeText(len(html)), sizeText(MaxUIResourceBytes))}
	}
	sum := sha256.Sum256(html)
	out := UIResource{URI: uri, MIMEType: item.MIMEType, HTML: html, Size: len(html), Digest: "sha256:" + hex.EncodeToString(sum[:])}
	if err := readUIMeta(&out, item.Meta); err != nil {
		return UIResource{}, err
	}
	return out, nil
}

// isUIMIME reports whether t is text/html;profile=mcp-app, with parameters
// compared case-insensitively and spaces allowed.
func isUIMIME(t string) bool {
	mt, params, err := mime.ParseMediaType(t)
	return err == nil && mt == "text/html" && len(params) == 1 && strings.EqualFold(params["profile"], "mcp-app")
}

// sizeText is n bytes for a person: "3.1 MB", "512 KB", "900 bytes".
func sizeText(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MB"
	case n >= 1<<20:
		return fmt.Sprintf("%d bytes (%.1f MB)", n, float64(n)/(1<<20))
	case n >= 1<<10:
		return strconv.Itoa(n>>10) + " KB"
	}
	return strconv.Itoa(n) + " bytes"
}

// readUIMeta fills the CSP, permissions and border preference of r from
// the content item's _meta.ui (docs/mcp-apps.md#csp).
func readUIMeta(r *UIResource, meta map[string]any) error {
	ui, _ := meta["ui"].(map[string]any)
	if ui == nil {
		return nil
	}
	if b, ok := ui["prefersBorder"].(bool); ok {
		r.PrefersBorder = &b
	}
	if perms, ok := ui["permissions"].(map[string]any); ok {
		for _, k := range knownPermissions {
			if _, asked := perms[k]; asked {
				r.Permissions = append(r.Permissions, k)
			}
		}
	}
	csp, ok := ui["csp"].(map[string]any)
	if !ok {
		if ui["csp"] != nil {
			return &UIResourceError{r.URI, "bad_csp", fmt.Sprintf("_meta.ui.csp is a %T, not an object", ui["csp"])}
		}
		return nil
	}
	for _, f := range []struct {
		key string
		to  *[]string
	}{{"connectDomains", &r.CSP.Connect}, {"resourceDomains", &r.CSP.Resource}, {"frameDomains", &r.CSP.Frame}, {"baseUriDomains", &r.CSP.BaseURI}} {
		v, present := csp[f.key]
		if !present || v == nil {
			continue
		}
		list, ok := v.([]any)
		if !ok {
			return &UIResourceError{r.URI, "bad_csp", fmt.Sprintf("_meta.ui.csp.%s is a %T, not a list of origins", f.key, v)}
		}
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				return &UIResourceError{r.URI, "bad_csp", fmt.Sprintf("_meta.ui.csp.%s holds a %T, not an origin string", f.key, e)}
			}
			o, err := CheckUIOrigin(s)
			if err != nil {
				return &UIResourceError{r.URI, "bad_csp", fmt.Sprintf("_meta.ui.csp.%s: %v", f.key, err)}
			}
			*f.to = append(*f.to, o)
		}
	}
	return nil
}

var (
	hostPattern = regexp.MustCompile(`^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)
	// ErrBadOrigin is wrapped by CheckUIOrigin's errors.
	ErrBadOrigin = errors.New("not an origin a view may declare")
)

// CheckUIOrigin checks one origin a view declared for its CSP and returns it
// lower-cased (docs/mcp-apps.md#csp): "https://host[:port]" (the host may
// start with "*."), "wss://host[:port]", or "http://localhost[:port]" /
// "http://127.0.0.1[:port]". Nothing else passes: no "*", quotes, ";",
// spaces, paths, "data:" or keywords such as 'unsafe-eval', so that no
// entry can add a directive or a source to the policy the window builds.
func CheckUIOrigin(s string) (string, error) {
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%q is %w: %s; write https://host[:port], wss://host[:port] or http://localhost[:port]", clip(s, 100), ErrBadOrigin, why)
	}
	scheme, rest, ok := strings.Cut(strings.ToLower(s), "://")
	if !ok {
		return bad("it has no scheme://")
	}
	if scheme != "https" && scheme != "wss" && scheme != "http" {
		return bad("the scheme " + strconv.Quote(scheme) + " is not https, wss or http")
	}
	host, port, hasPort := strings.Cut(rest, ":")
	if hasPort {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port[0] == '0' || strconv.Itoa(n) != port {
			return bad("the port is not a number from 1 to 65535 (no path may follow)")
		}
	}
	if !hostPattern.MatchString(host) {
		return bad("the host is not a DNS name (letters, digits, '-' and '.', optionally starting with \"*.\")")
	}
	if scheme == "http" && host != "localhost" && host != "127.0.0.1" {
		return bad("plain http is allowed only for localhost and 127.0.0.1")
	}
	return scheme + "://" + rest, nil
}
