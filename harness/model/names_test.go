package model

import (
	"errors"
	"strings"
	"testing"
)

// Every provider is a NameRule.
var _ NameRule = Provider(nil)

// TestToolNames: the rule of a provider named without building one, the
// shared rule for no provider, and an error for an unknown name. Each
// names its provider (or both) and the pattern, and agrees with the
// provider's own CheckToolName.
func TestToolNames(t *testing.T) {
	long := strings.Repeat("x", 65)
	for name, who := range map[string]string{"openai": "the openai provider", "anthropic": "the anthropic provider", "": "the model providers (openai, anthropic)"} {
		r, err := ToolNames(name)
		if err != nil {
			t.Fatalf("ToolNames(%q) = %v", name, err)
		}
		if name == "" && (r != SharedToolNames || r.Name() != AnyProvider) {
			t.Errorf(`ToolNames("") = %v (%s); want SharedToolNames`, r, r.Name())
		}
		if name != "" && r.Name() != name {
			t.Errorf("ToolNames(%q).Name() = %q", name, r.Name())
		}
		if err := r.CheckToolName("ok__name"); err != nil {
			t.Errorf("%q: CheckToolName(ok__name) = %v", name, err)
		}
		err = r.CheckToolName(long)
		if err == nil || !strings.Contains(err.Error(), who) || !strings.Contains(err.Error(), ToolNamePattern) || !strings.Contains(err.Error(), "65 bytes long") {
			t.Errorf("%q: CheckToolName(65 bytes) = %v; want it to name %s and %s", name, err, who, ToolNamePattern)
		}
		if name == "" {
			continue
		}
		p, err := New(Config{Provider: name, Model: "m", APIKey: "k"})
		if err != nil {
			t.Fatal(err)
		}
		if pe := p.CheckToolName(long); pe == nil || pe.Error() != r.CheckToolName(long).Error() {
			t.Errorf("%s: the provider says %v, ToolNames %v", name, pe, r.CheckToolName(long))
		}
	}
	if _, err := ToolNames("gemini"); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), `"gemini"`) {
		t.Errorf(`ToolNames("gemini") = %v; want ErrConfig naming it`, err)
	}
}
