package consent

import (
	"context"
	"fmt"
	"strings"
)

// Policy is a standing answer for a coworker and tool (docs/consent.md).
type Policy string

const (
	PolicyAsk   Policy = "ask" // the default
	PolicyAllow Policy = "allow"
	PolicyDeny  Policy = "deny"
)

// ParsePolicy accepts "ask", "allow" or "deny".
func ParsePolicy(s string) (Policy, error) {
	if p := Policy(strings.TrimSpace(s)); p.Valid() {
		return p, nil
	}
	return "", fmt.Errorf("unknown policy %q; use %s", s, OneOf(Policies()))
}

// PolicyStore keeps the user's saved policies ("always allow for this
// coworker"), keyed by coworker, qualified tool name and descriptor digest so
// that a changed tool asks again. The journal implements it.
type PolicyStore interface {
	UserPolicy(ctx context.Context, coworker, tool, digest string) (string, bool, error)
	SaveUserPolicy(ctx context.Context, coworker, tool, digest, policy string) error
}

// ManifestPolicy returns the manifest's policy for a tool: an exact entry
// wins over "*"; no entry means ask.
func ManifestPolicy(policies map[string]string, tool string) Policy {
	if p, ok := policies[tool]; ok {
		return Policy(p)
	}
	if p, ok := policies["*"]; ok {
		return Policy(p)
	}
	return PolicyAsk
}
