//go:build unix

package mcp

import (
	"context"
	"strings"
	"testing"
)

// TestPromptsEverythingServer: server-everything's prompts, listed with
// their arguments and expanded to text (an embedded resource as a
// placeholder line).
func TestPromptsEverythingServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*startGuard)
	defer cancel()
	p, err := Connect(ctx, everythingServer(t), &Options{StartTimeout: startGuard})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	list, err := p.ListPrompts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Prompt{}
	for _, pr := range list {
		byName[pr.Name] = pr
	}
	args := byName["args-prompt"]
	if _, ok := byName["simple-prompt"]; !ok || args.Title != "Arguments Prompt" || len(args.Arguments) != 2 ||
		args.Arguments[0].Name != "city" || !args.Arguments[0].Required || args.Arguments[1].Name != "state" || args.Arguments[1].Required {
		t.Fatalf("ListPrompts = %+v", list)
	}
	if err := args.CheckArgs(nil); err == nil || !strings.Contains(err.Error(), `needs the argument "city"`) {
		t.Errorf("CheckArgs(nil) = %v", err)
	}
	res, err := p.GetPrompt(ctx, "args-prompt", map[string]string{"city": "Lyon", "state": "Rhône"})
	if err != nil || len(res.Messages) != 1 || res.Messages[0] != (PromptMessage{Role: "user", Text: "What's weather in Lyon, Rhône?"}) {
		t.Errorf("GetPrompt(args-prompt) = %+v, %v", res, err)
	}
	res, err = p.GetPrompt(ctx, "resource-prompt", map[string]string{"resourceType": "Text", "resourceId": "2"})
	if err != nil || len(res.Messages) != 2 || !strings.HasPrefix(res.Messages[1].Text, "[resource: ") || !strings.Contains(res.Messages[1].Text, "2") {
		t.Errorf("GetPrompt(resource-prompt) = %+v, %v", res, err)
	}
	if _, err := p.GetPrompt(ctx, "resource-prompt", map[string]string{"resourceType": "Nope", "resourceId": "2"}); err == nil || !strings.Contains(err.Error(), "Invalid resourceType") {
		t.Errorf("GetPrompt(resource-prompt, Nope) = %v; want the server's error", err)
	}
}
