package mcp

import (
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/tool"
)

// toolUI reads a tool's MCP Apps view from its _meta
// (docs/mcp-apps.md#resources): _meta.ui.resourceUri, or the older flat key
// _meta["ui/resourceUri"], and _meta.ui.visibility. It returns nil and why
// when the tool declares a view that cannot be used (not a ui:// URI, not a
// string); nil and "" when it declares none. Unknown visibility values are
// dropped; none left means the default, both "model" and "app".
func toolUI(meta map[string]any) (*tool.UIRef, string) {
	if meta == nil {
		return nil, ""
	}
	var (
		raw any
		key string
		vis any
	)
	if ui, ok := meta["ui"].(map[string]any); ok {
		raw, key, vis = ui["resourceUri"], "_meta.ui.resourceUri", ui["visibility"]
	}
	if raw == nil {
		if flat, ok := meta["ui/resourceUri"]; ok {
			raw, key = flat, `_meta["ui/resourceUri"]`
		}
	}
	if raw == nil {
		return nil, ""
	}
	uri, ok := raw.(string)
	if !ok {
		return nil, fmt.Sprintf("%s is a %T, not a string; the view is ignored", key, raw)
	}
	if !strings.HasPrefix(uri, "ui://") || len(uri) == len("ui://") {
		return nil, fmt.Sprintf("%s is %q, not a ui:// URI; only ui:// resources are shown as app views", key, clip(uri, 200))
	}
	ref := &tool.UIRef{ResourceURI: uri}
	problem := ""
	if list, ok := vis.([]any); ok {
		for _, v := range list {
			switch v {
			case tool.VisibleToModel, tool.VisibleToApp:
				ref.Visibility = append(ref.Visibility, v.(string))
			default:
				problem = fmt.Sprintf("_meta.ui.visibility has %v; only \"model\" and \"app\" are known, the rest is dropped", v)
			}
		}
	} else if vis != nil {
		problem = fmt.Sprintf("_meta.ui.visibility is a %T, not a list; the default (model and app) applies", vis)
	}
	return ref, problem
}

// clip shortens s to at most n bytes (on a rune boundary), marking a cut with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
