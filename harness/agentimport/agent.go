package agentimport

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/openworker/desktop/harness/bundle"
)

// agentSource is an agent of any kind as read, before its tools are
// mapped: what becomes one coworker.
type agentSource struct {
	kind         Kind
	path         string
	name         string // as the source names it
	description  string
	instructions string
	model        string
	// mapTools maps the source's tool names onto c.
	mapTools func(m *mapper, c *Coworker)
	ignored  []Ignored
	notes    []string
	skills   []skillSource
	export   *exportSource // for KindExport
}

// coworker makes the coworker of a (its id is set by Preview), mending
// what a bundle cannot hold as it is and saying so in Notes.
func (a *agentSource) coworker(m *mapper) *Coworker {
	c := &Coworker{Source: a.path, Kind: a.kind, Tools: []string{}, Mapped: []Mapping{}, Unmapped: []Unmapped{},
		Skills: []string{}, Ignored: append([]Ignored{}, a.ignored...), Notes: append([]string{}, a.notes...), skills: a.skills}
	c.Name = oneLine(a.name)
	if c.Name != a.name {
		c.note("the name is made one line")
	}
	if n := utf8.RuneCountInString(c.Name); n > bundle.MaxNameChars {
		c.Name = cut(c.Name, bundle.MaxNameChars)
		c.note("the name is shortened from %d to %d characters", n, bundle.MaxNameChars)
	}
	c.Description = strings.TrimSpace(a.description)
	if n := utf8.RuneCountInString(c.Description); n > bundle.MaxDescChars {
		c.Description = cut(c.Description, bundle.MaxDescChars)
		c.note("the description is shortened from %d to %d characters, the limit of a coworker's", n, bundle.MaxDescChars)
	}
	c.Instructions = strings.TrimSpace(a.instructions)
	if c.Instructions == "" {
		c.Instructions = "You are " + c.Name + "."
		if c.Description != "" {
			c.Instructions += " " + c.Description
		}
		c.note("the source has no instructions: they are made of the name and description")
	}
	c.Model = a.model
	if a.mapTools != nil {
		a.mapTools(m, c)
	}
	for _, s := range a.skills {
		c.Skills = append(c.Skills, s.name)
	}
	c.export = a.export
	return c
}

func (c *Coworker) note(format string, args ...any) {
	c.Notes = append(c.Notes, fmt.Sprintf(format, args...))
}

func (c *Coworker) ignore(field, reason string) {
	c.Ignored = append(c.Ignored, Ignored{Field: field, Reason: reason})
}

// oneLine joins the lines of s with spaces and trims it.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// cut shortens s to n characters, the last an ellipsis.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// modelID is a model id as a provider's API takes it ("gpt-4.1-mini",
// "claude-sonnet-4-5"): not a display name ("GPT-4.1", "Claude Sonnet 4")
// nor an alias of one host.
var modelID = regexp.MustCompile(`^[a-z0-9][a-z0-9._:/-]{0,127}$`)

// hostModelAliases are model names that mean something only in their
// host (Claude Code's).
var hostModelAliases = map[string]bool{"sonnet": true, "opus": true, "haiku": true, "inherit": true, "opusplan": true, "default": true}

// model takes a source's model into a, or says in ignored why not.
func (a *agentSource) takeModel(field string, line int, v string) {
	v = strings.TrimSpace(v)
	switch {
	case v == "":
	case hostModelAliases[v]:
		a.ignored = append(a.ignored, Ignored{Field: field, Line: line, Reason: fmt.Sprintf("%q is a model alias of its host; the coworker uses the model of the settings", v)})
	case !modelID.MatchString(v):
		a.ignored = append(a.ignored, Ignored{Field: field, Line: line, Reason: fmt.Sprintf("%q is a model's display name, not the id a provider's API takes; the coworker uses the model of the settings (set one in its editor)", v)})
	default:
		a.model = v
		a.notes = append(a.notes, fmt.Sprintf("its chats ask for model %q (docs/bundles.md#model); remove it in the editor if your model provider does not serve it", v))
	}
}
