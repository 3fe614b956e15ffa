package model

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func fakeEnv(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestFromEnv(t *testing.T) {
	tests := []struct {
		name string
		in   Config
		env  map[string]string
		want Config
	}{
		{
			name: "nothing set targets local ollama",
			want: Config{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.2", APIKey: "ollama"},
		},
		{
			name: "OLLAMA_HOST host:port without scheme",
			env:  map[string]string{"OLLAMA_HOST": "10.0.0.5:8080"},
			want: Config{Provider: "openai", BaseURL: "http://10.0.0.5:8080/v1", Model: "llama3.2", APIKey: "ollama"},
		},
		{
			name: "OLLAMA_HOST bare host gets default port",
			env:  map[string]string{"OLLAMA_HOST": "gpu-box"},
			want: Config{Provider: "openai", BaseURL: "http://gpu-box:11434/v1", Model: "llama3.2", APIKey: "ollama"},
		},
		{
			name: "OLLAMA_HOST :port means loopback",
			env:  map[string]string{"OLLAMA_HOST": ":9999"},
			want: Config{Provider: "openai", BaseURL: "http://127.0.0.1:9999/v1", Model: "llama3.2", APIKey: "ollama"},
		},
		{
			name: "OLLAMA_HOST full URL with trailing slash",
			env:  map[string]string{"OLLAMA_HOST": "https://ollama.example:443/"},
			want: Config{Provider: "openai", BaseURL: "https://ollama.example:443/v1", Model: "llama3.2", APIKey: "ollama"},
		},
		{
			name: "OPENAI_API_KEY alone targets OpenAI",
			env:  map[string]string{"OPENAI_API_KEY": "sk-test-123456789", "OLLAMA_HOST": "ignored:1"},
			want: Config{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-4o-mini", APIKey: "sk-test-123456789"},
		},
		{
			name: "OPENAI_BASE_URL alone (LM Studio) keeps an empty key",
			env:  map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:1234/v1"},
			want: Config{Provider: "openai", BaseURL: "http://127.0.0.1:1234/v1", Model: "gpt-4o-mini"},
		},
		{
			name: "explicit fields win over the environment",
			in:   Config{BaseURL: "http://127.0.0.1:5/v1", Model: "qwen3", APIKey: "k"},
			env:  map[string]string{"OPENAI_API_KEY": "env-key", "OPENAI_BASE_URL": "http://env/v1"},
			want: Config{Provider: "openai", BaseURL: "http://127.0.0.1:5/v1", Model: "qwen3", APIKey: "k"},
		},
		{
			name: "explicit base URL without key does not fall back to ollama",
			in:   Config{BaseURL: "http://127.0.0.1:5/v1"},
			want: Config{Provider: "openai", BaseURL: "http://127.0.0.1:5/v1", Model: "gpt-4o-mini"},
		},
		{
			name: "explicit model with ollama",
			in:   Config{Model: "mistral"},
			want: Config{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "mistral", APIKey: "ollama"},
		},
		{
			name: "anthropic defaults",
			in:   Config{Provider: "anthropic"},
			env:  map[string]string{"ANTHROPIC_API_KEY": "sk-ant-xyz", "OPENAI_API_KEY": "not-this"},
			want: Config{Provider: "anthropic", BaseURL: "https://api.anthropic.com", Model: "claude-sonnet-4-5", APIKey: "sk-ant-xyz"},
		},
		{
			name: "anthropic base URL from env",
			in:   Config{Provider: "anthropic", Model: "claude-x"},
			env:  map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:7"},
			want: Config{Provider: "anthropic", BaseURL: "http://127.0.0.1:7", Model: "claude-x"},
		},
		{
			name: "unknown provider left alone",
			in:   Config{Provider: "gemini"},
			env:  map[string]string{"OPENAI_API_KEY": "x"},
			want: Config{Provider: "gemini"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FromEnv(tt.in, fakeEnv(tt.env))
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Config{}, "HTTPClient")); diff != "" {
				t.Errorf("FromEnv(%+v) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestFromEnvNilGetenv(t *testing.T) {
	got := FromEnv(Config{}, nil)
	if got.BaseURL != "http://127.0.0.1:11434/v1" {
		t.Errorf("FromEnv(nil getenv).BaseURL = %q, want the Ollama default", got.BaseURL)
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Provider: "gemini", Model: "m"}, `unknown provider "gemini"`},
		{Config{BaseURL: "http://127.0.0.1:1/v1"}, "no model name"},
		{Config{Provider: "anthropic", Model: " "}, "no model name"},
		{Config{BaseURL: "127.0.0.1:1/v1", Model: "m"}, "not an absolute http"},
		{Config{BaseURL: "ftp://host/v1", Model: "m"}, "not an absolute http"},
	}
	for _, tt := range tests {
		_, err := New(tt.cfg)
		if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) = %v, want an ErrConfig error containing %q", tt.cfg, err, tt.want)
		}
	}
}

func TestNewAndDescribe(t *testing.T) {
	p, err := New(Config{BaseURL: "http://user:sekret-password@127.0.0.1:9/v1", Model: "llama3.2", APIKey: "sk-very-secret-key"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "openai" {
		t.Errorf("Name() = %q, want openai", p.Name())
	}
	d := p.Describe()
	if !strings.Contains(d, "openai-compatible") || !strings.Contains(d, "127.0.0.1:9/v1") || !strings.Contains(d, "llama3.2") {
		t.Errorf("Describe() = %q, want the kind, base URL and model", d)
	}
	if strings.Contains(d, "sekret-password") || strings.Contains(d, "sk-very-secret-key") {
		t.Errorf("Describe() = %q leaks a secret", d)
	}
	a, err := New(Config{Provider: "anthropic", Model: "claude-sonnet-4-5", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	// The hosted APIs refuse to start without a key, before any request.
	for _, provider := range []string{"openai", "anthropic"} {
		if _, err := New(Config{Provider: provider, Model: "m"}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "_API_KEY") {
			t.Errorf("New(%s without a key) = %v, want ErrConfig naming the variable", provider, err)
		}
	}
	if a.Name() != "anthropic" || a.Describe() != "anthropic https://api.anthropic.com model claude-sonnet-4-5" {
		t.Errorf("anthropic Name/Describe = %q / %q", a.Name(), a.Describe())
	}
}

func TestCheckToolName(t *testing.T) {
	tests := []struct {
		alias string
		ok    bool
		why   string
	}{
		{"device__battery_status_get", true, ""},
		{"a", true, ""},
		{"A-Z_0-9", true, ""},
		{strings.Repeat("x", 64), true, ""},
		{strings.Repeat("x", 65), false, "65 bytes long, more than 64"},
		{"device.battery", false, `contains '.'`},
		{"", false, "empty"},
		{"naïve", false, `contains 'ï'`},
		{"has space", false, `contains ' '`},
	}
	for _, provider := range []string{"openai", "anthropic"} {
		p, err := New(Config{Provider: provider, Model: "m", APIKey: "k"})
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range tests {
			err := p.CheckToolName(tt.alias)
			if tt.ok {
				if err != nil {
					t.Errorf("%s CheckToolName(%q) = %v, want nil", provider, tt.alias, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("%s CheckToolName(%q) = nil, want an error", provider, tt.alias)
				continue
			}
			msg := err.Error()
			for _, want := range []string{tt.why, provider, "^[a-zA-Z0-9_-]{1,64}$"} {
				if !strings.Contains(msg, want) {
					t.Errorf("%s CheckToolName(%q) = %q, want it to mention %q", provider, tt.alias, msg, want)
				}
			}
			if tt.alias != "" && !strings.Contains(msg, tt.alias) {
				t.Errorf("%s CheckToolName(%q) = %q, want it to name the alias", provider, tt.alias, msg)
			}
		}
	}
}
