package mcp

import (
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// TestDescriptorRiskFromHints: read-only only when the server says so; a
// tool declared neither destructive nor repeating its effect is an
// idempotent write; anything else, or nothing said, may destroy data.
func TestDescriptorRiskFromHints(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		name            string
		ro, destr, idem *bool
		want            tool.Risk
	}{
		{"read-only", &yes, nil, nil, tool.ReadOnly},
		{"folder_make", &no, &no, &yes, tool.IdempotentWrite},
		{"append", &no, &no, &no, tool.NonIdempotentWrite},
		{"delete", &no, &yes, &yes, tool.NonIdempotentWrite},
		{"idempotent, destructive unsaid", &no, nil, &yes, tool.NonIdempotentWrite},
		{"nothing said", nil, nil, nil, tool.NonIdempotentWrite},
	} {
		rt := RemoteTool{Name: c.name, ReadOnlyHint: c.ro, DestructiveHint: c.destr, IdempotentHint: c.idem}
		if got := rt.Descriptor("files").Risk; got != c.want {
			t.Errorf("%s: Risk = %s, want %s", c.name, got, c.want)
		}
	}
}
