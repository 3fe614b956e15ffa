package tool

import (
	"fmt"
	"strings"
)

// Name limits and reserved words (docs/registry.md).
const (
	// MaxNameBytes bounds a selected qualified name and its alias alike.
	MaxNameBytes = 80
	// ReservedNamespace may not be used by any tool or provider.
	ReservedNamespace = "openworker"
	// SkillsNamespace may not be used by any tool or provider either: it
	// holds the tools the harness gives a coworker with skills,
	// skills.load and skills.read (docs/bundles.md#skills-tools).
	SkillsNamespace = "skills"
	// AliasSeparator replaces every "." of a qualified name in its alias.
	AliasSeparator = "__"
)

// Alias returns the model alias of a qualified name: every "." becomes "__"
// (docs/registry.md), so "example.web_search" becomes "example__web_search". The alias
// is an encoding, not a second name space.
func Alias(name string) string { return strings.ReplaceAll(name, ".", AliasSeparator) }

// SplitName splits "namespace.tool" at its first dot. The namespace holds no
// dot; an MCP remote tool name may.
func SplitName(name string) (namespace, tool string, err error) {
	if err := checkASCII(name); err != nil {
		return "", "", err
	}
	ns, t, ok := strings.Cut(name, ".")
	if !ok || ns == "" || t == "" {
		return "", "", fmt.Errorf("tool name %q is not qualified; write it as namespace.tool, e.g. \"example.web_search\"", name)
	}
	return ns, t, nil
}

// CheckNamespace checks a namespace: [A-Za-z0-9_-]+ and neither
// ReservedNamespace nor SkillsNamespace.
func CheckNamespace(ns string) error {
	if ns == "" {
		return fmt.Errorf("namespace is empty; use letters, digits, '_' or '-'")
	}
	if err := checkASCII(ns); err != nil {
		return err
	}
	if i := strings.IndexFunc(ns, func(r rune) bool { return !isNameRune(r) }); i >= 0 {
		return fmt.Errorf("namespace %q has %q at byte %d; a namespace may hold only letters, digits, '_' and '-'", ns, ns[i], i)
	}
	if ns == ReservedNamespace {
		return fmt.Errorf("namespace %q is reserved for OpenWorker itself; choose another namespace", ns)
	}
	if ns == SkillsNamespace {
		return fmt.Errorf("namespace %q is reserved for the tools OpenWorker gives a coworker with skills (skills.load, skills.read); choose another namespace", ns)
	}
	return nil
}

// CheckNativeName checks the qualified name of a native tool.
func CheckNativeName(name string) error { return checkName(name, false) }

// CheckMCPName checks the qualified name of an MCP tool, whose remote part may
// also contain '.' (MCP allows it).
func CheckMCPName(name string) error { return checkName(name, true) }

func checkName(name string, dotsInTool bool) error {
	ns, t, err := SplitName(name)
	if err != nil {
		return err
	}
	if err := CheckNamespace(ns); err != nil {
		return fmt.Errorf("tool %q: %w", name, err)
	}
	bad := func(r rune) bool { return !isNameRune(r) && !(dotsInTool && r == '.') }
	if i := strings.IndexFunc(t, bad); i >= 0 {
		allowed := "letters, digits, '_' and '-'"
		if dotsInTool {
			allowed += " and '.'"
		}
		return fmt.Errorf("tool %q has %q in its tool part; it may hold only %s", name, t[i], allowed)
	}
	if len(name) > MaxNameBytes {
		return fmt.Errorf("tool %q is %d bytes; a qualified name may be at most %d bytes", name, len(name), MaxNameBytes)
	}
	if a := Alias(name); len(a) > MaxNameBytes {
		return fmt.Errorf("tool %q has the alias %q of %d bytes; an alias may be at most %d bytes (each '.' becomes \"__\")", name, a, len(a), MaxNameBytes)
	}
	return nil
}

func checkASCII(s string) error {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return fmt.Errorf("name %q is not ASCII (byte %d is 0x%02x); names are case-sensitive ASCII", s, i, s[i])
		}
	}
	return nil
}

func isNameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
}

// CheckAliases reports the first two names whose aliases collide, such as
// "a.b__c" and "a__b.c" (both "a__b__c"). names must already be distinct.
func CheckAliases(names []string) error {
	seen := make(map[string]string, len(names))
	for _, n := range names {
		a := Alias(n)
		if other, ok := seen[a]; ok && other != n {
			return fmt.Errorf("tools %q and %q have the same model alias %q; rename one of them", other, n, a)
		}
		seen[a] = n
	}
	return nil
}
