package consent

import (
	"fmt"
	"strings"
)

// The values of consent's vocabularies are defined here once: the journal
// stores them, bundles and the stdio protocol read them, the app and the
// window show them (docs/consent.md). A test of the app checks the
// TypeScript unions of the window against these lists
// (docs/architecture.md#where-to-add).

// Decisions lists the five answers to a prompt, in the order a prompt
// offers them.
func Decisions() []Decision {
	return []Decision{AllowOnce, AllowSession, AllowAlways, Deny, DenyAlways}
}

// Policies lists the standing answers a manifest or the person can give a
// tool; PolicyAsk is the default.
func Policies() []Policy { return []Policy{PolicyAsk, PolicyAllow, PolicyDeny} }

// Modes lists the approval modes of a session.
func Modes() []Mode { return []Mode{Ask, Bypass} }

// Valid reports whether p is one of Policies.
func (p Policy) Valid() bool { return p == PolicyAsk || p == PolicyAllow || p == PolicyDeny }

// ParseDecision accepts one of Decisions, as written.
func ParseDecision(s string) (Decision, error) {
	if d := Decision(s); d.Valid() {
		return d, nil
	}
	return "", fmt.Errorf("%q is not an answer; use %s", s, OneOf(Decisions()))
}

// OneOf writes values as a person reads a choice: "a, b or c".
func OneOf[T ~string](values []T) string {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = string(v)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}
