package app

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/tool"
)

// GaveTools is what GiveTools did.
type GaveTools struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Dir     string   `json:"dir"`
	Created bool     `json:"created"` // a new coworker was made
	Added   []string `json:"added"`   // the tools it has now and did not have
}

// GiveTools gives tools (qualified names: the tools of a server just
// imported or an extension just installed, docs/app.md#one-step-tools)
// to the coworker in dir, adding those it does not select yet to its
// tools.json (bundle.Save), or, when dir is "", to a new coworker named
// name (bundle.Create, its id made from the name) whose instructions say
// to use them. Nothing else changes: their calls ask first as any call
// does. A coworker that does not load is refused (fix it in the editor
// first), as is one that selects whole providers (tools.json version 1:
// list them in the editor first).
func (ed *Editor) GiveTools(dir, name string, tools []string) (GaveTools, error) {
	tools = uniqueTools(tools)
	if len(tools) == 0 {
		return GaveTools{}, errors.New("no tools to give: tick at least one")
	}
	for _, t := range tools {
		if _, _, err := tool.SplitName(t); err != nil {
			return GaveTools{}, fmt.Errorf("%q is not a tool's qualified name: %v", t, err)
		}
	}
	if dir == "" {
		return ed.giveToNew(name, tools)
	}
	abs, err := ed.inFolder(dir)
	if err != nil {
		return GaveTools{}, err
	}
	d, ps, err := bundle.ReadDraft(abs)
	if err != nil {
		return GaveTools{}, err
	}
	if len(ps) > 0 {
		return GaveTools{}, fmt.Errorf("%s cannot start (%s); fix it in the editor first, then give it the tools", d.Name, ps[0].Error())
	}
	if len(d.WholeProviders) > 0 {
		return GaveTools{}, fmt.Errorf("%s selects every tool of %s (tools.json version 1); open it in the editor and choose List its tools first", d.Name, strings.Join(d.WholeProviders, ", "))
	}
	out := GaveTools{ID: d.ID, Name: d.Name, Dir: abs, Added: []string{}}
	for _, t := range tools {
		if !slices.Contains(d.Tools, t) {
			d.Tools = append(d.Tools, t)
			out.Added = append(out.Added, t)
		}
	}
	if len(out.Added) == 0 {
		return out, nil
	}
	if err := bundle.Save(abs, d); err != nil {
		return GaveTools{}, err
	}
	ed.log.Info("tools given", "coworker", d.ID, "tools", out.Added)
	return out, nil
}

// giveToNew makes a new coworker named name with tools.
func (ed *Editor) giveToNew(name string, tools []string) (GaveTools, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return GaveTools{}, errors.New("the new coworker needs a name")
	}
	var namespaces []string
	for _, t := range tools {
		if ns, _, _ := tool.SplitName(t); !slices.Contains(namespaces, ns) {
			namespaces = append(namespaces, ns)
		}
	}
	root := ed.settings.coworkersDir()
	d := bundle.Draft{Name: name, Version: "1.0.0", Tools: tools,
		Description:  fmt.Sprintf("Works with the tools of %s.", strings.Join(namespaces, ", ")),
		Instructions: givenInstructions(name, tools)}
	d.ID = bundle.NewID(name, taken(root))
	created, err := bundle.Create(root, d)
	if err != nil {
		return GaveTools{}, err
	}
	ed.log.Info("coworker created with tools", "id", d.ID, "tools", tools)
	return GaveTools{ID: d.ID, Name: d.Name, Dir: created, Created: true, Added: tools}, nil
}

// givenInstructions are the first instructions of a coworker made to use
// tools: who it is, its tools by the names the model sees, and care.
func givenInstructions(name string, tools []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "You are %s, a coworker who helps the person with these tools:\n\n", name)
	for _, t := range tools {
		fmt.Fprintf(&b, "- `%s`\n", tool.Alias(t))
	}
	b.WriteString("\nUse a tool when it answers the question better than you can without it. " +
		"Before a call that changes or deletes something, say what it will do. " +
		"If a tool fails, say what failed; never make up what a tool would have returned.")
	return b.String()
}

// uniqueTools is tools without blanks and repeats, in order.
func uniqueTools(tools []string) []string {
	out := []string{}
	for _, t := range tools {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
