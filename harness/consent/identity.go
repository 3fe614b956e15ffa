package consent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/gowebpki/jcs"
)

// IdentityParts are what a session's execution identity covers (docs/identity.md).
type IdentityParts struct {
	Bundle      string                `json:"bundle"`      // bundle digest: manifest, tools.json, skills
	Policies    map[string]string     `json:"policies"`    // the manifest's policies
	Selection   map[string]Selected   `json:"selection"`   // qualified name → provider and remote name
	Descriptors map[string]PinnedDesc `json:"descriptors"` // qualified name → version and digests
	Executable  string                `json:"executable"`  // sha256 of the host executable
}

// Selected is where one selected tool resolves.
type Selected struct {
	Provider string `json:"provider"` // "native" or "mcp:<namespace>"
	Remote   string `json:"remote"`   // the provider's own tool name
	// Placement is the remote host a call goes to, "" on this computer
	// (docs/consent.md#placement): a provider moved to another host is
	// another identity.
	Placement string `json:"placement,omitempty"`
	// Sandbox is the provider's sandbox as canonical JSON
	// (docs/sandbox.md): a changed sandbox is a changed selection, so it
	// needs a new session. "" for none.
	Sandbox string `json:"sandbox,omitempty"`
}

// PinnedDesc pins one selected descriptor.
type PinnedDesc struct {
	Version string `json:"version"`
	Input   string `json:"input"`  // sha256:<hex> of the canonical input schema
	Output  string `json:"output"` // sha256:<hex> of the canonical output schema, or ""
	Digest  string `json:"digest"` // sha256:<hex> of the whole canonical descriptor
}

// Identity returns "sha256:<hex>" of the RFC 8785 canonical JSON of p, and
// that canonical JSON.
func Identity(p IdentityParts) (string, []byte, error) {
	raw, err := json.Marshal(p)
	if err != nil {
		return "", nil, err
	}
	canon, err := jcs.Transform(raw)
	if err != nil {
		return "", nil, fmt.Errorf("canonicalize identity: %w", err)
	}
	sum := sha256.Sum256(canon)
	return "sha256:" + hex.EncodeToString(sum[:]), canon, nil
}

// Diff names the parts that differ between two identities, for the message
// that refuses to resume a session whose identity changed.
func (p IdentityParts) Diff(q IdentityParts) []string {
	var out []string
	if p.Bundle != q.Bundle {
		out = append(out, "the coworker bundle (manifest.md, tools.json or skills)")
	}
	if !sameJSON(p.Policies, q.Policies) {
		out = append(out, "the coworker's policies")
	}
	if !sameJSON(p.Selection, q.Selection) {
		out = append(out, "the resolved tool selection")
	}
	for name, d := range p.Descriptors {
		if e, ok := q.Descriptors[name]; ok && e != d {
			out = append(out, fmt.Sprintf("the descriptor of %s (version %s → %s)", name, d.Version, e.Version))
		}
	}
	if p.Executable != q.Executable {
		out = append(out, "the OpenWorker executable")
	}
	return out
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// FileDigest returns "sha256:<hex>" of a file's bytes, such as the host
// executable.
func FileDigest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// ApprovalDigest is the digest an approval of a tool binds to
// (docs/consent.md#placement): the descriptor digest for a call that runs on
// this computer, and the digest with "@" and the remote host for one that
// does not. A session grant or an "always allow" given to a tool on this
// computer therefore does not carry over when its provider moves to a
// remote host (or from one host to another).
func ApprovalDigest(descriptorDigest, placement string) string {
	if placement == "" || placement == localPlacement {
		return descriptorDigest
	}
	return descriptorDigest + "@" + placement
}

// localPlacement is tool.PlacementLocal (package consent does not import tool).
const localPlacement = "on this computer"
