package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness"
)

// parsePromptArgs reads the --arg NAME=VALUE flags of run: each needs a
// name and "=", and a name may come only once; --arg needs --prompt.
func parsePromptArgs(f runFlags) (map[string]string, error) {
	if len(f.args) > 0 && f.prompt == "" {
		return nil, usageErr("--arg gives an argument of --prompt; add --prompt NS.NAME")
	}
	out := make(map[string]string, len(f.args))
	for _, a := range f.args {
		k, v, ok := strings.Cut(a, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, usageErr("--arg %q: write NAME=VALUE, e.g. --arg city=Lyon", a)
		}
		if _, dup := out[k]; dup {
			return nil, usageErr("--arg %s is given twice; give each argument once", k)
		}
		out[k] = v
	}
	return out, nil
}

// expandPrompt gets the prompt name of the session's providers with args
// and returns its text (harness.PromptText), followed by extra (the
// command's TEXT) after a blank line when given. An unknown prompt (the
// error lists those there are) or a missing argument is bad input (exit 2).
func expandPrompt(ctx context.Context, s *harness.Session, name string, args map[string]string, extra string) (string, error) {
	res, err := s.GetPrompt(ctx, name, args)
	if err != nil {
		return "", badInput(fmt.Errorf("--prompt: %w", err))
	}
	text := harness.PromptText(res)
	if extra != "" {
		text = strings.TrimSpace(text + "\n\n" + extra)
	}
	if text == "" {
		return "", badInput(fmt.Errorf("--prompt %s: the prompt has no text", name))
	}
	return text, nil
}
