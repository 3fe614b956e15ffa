package consent

import (
	"context"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// An approval given to a tool on this computer is not an approval of the
// same tool on a remote host (docs/consent.md#placement).
func TestApprovalsBindToPlacement(t *testing.T) {
	if localPlacement != tool.PlacementLocal {
		t.Fatalf("localPlacement %q != tool.PlacementLocal %q", localPlacement, tool.PlacementLocal)
	}
	if got := ApprovalDigest("sha256:1", tool.PlacementLocal); got != "sha256:1" {
		t.Fatalf("local digest = %q, want it unchanged (saved policies keep working)", got)
	}
	ctx := context.Background()
	st := &memStore{}
	for _, d := range []Decision{AllowSession, AllowAlways} {
		a := &answer{d: d}
		e := &Engine{Mode: Ask, Prompter: a, Store: st}
		local := subject(nil)
		local.Digest = ApprovalDigest("sha256:"+string(d), tool.PlacementLocal)
		if out := e.Decide(ctx, local); out.Source != SourcePrompt {
			t.Fatalf("%s: first call decided by %s, want a prompt", d, out.Source)
		}
		if out := e.Decide(ctx, local); out.Source == SourcePrompt {
			t.Fatalf("%s: second local call prompted again", d)
		}
		for _, host := range []string{"mcp.example.com", "other.example.com"} {
			remote := local
			remote.Digest = ApprovalDigest("sha256:"+string(d), host)
			asked := a.asked
			if out := e.Decide(ctx, remote); out.Source != SourcePrompt || a.asked != asked+1 {
				t.Fatalf("%s: the call moved to %s was decided by %s without asking", d, host, out.Source)
			}
		}
	}
}
