package agentimport

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/openworker/desktop/harness/servers"
)

// Goose recipes (block.github.io/goose/docs/guides/recipes/recipe-
// reference): YAML or JSON with title, description, instructions and/or
// prompt, extensions (MCP servers and Goose's own), parameters
// ({{ name }} in the text), activities and settings.

var gooseKnown = map[string]bool{"title": true, "description": true, "instructions": true, "prompt": true, "extensions": true, "parameters": true, "settings": true}

var gooseIgnored = map[string]string{
	"version":     "the version of Goose's recipe format",
	"author":      "who wrote the recipe; see its source",
	"activities":  "suggested first messages of Goose's interface",
	"response":    "a JSON schema Goose checks the last answer against; OpenWorker does not",
	"sub_recipes": "recipes Goose runs as subagents; import them as coworkers of their own",
	"retry":       "Goose's retry of a recipe until checks pass; OpenWorker does not retry",
	"context":     "Goose's extra context files",
}

// gooseExtension is one entry of "extensions" (Goose's ExtensionConfig).
type gooseExtension struct {
	Type           string            `yaml:"type"`
	Name           string            `yaml:"name"`
	Cmd            string            `yaml:"cmd"`
	Args           []string          `yaml:"args"`
	Envs           map[string]string `yaml:"envs"`
	Env            map[string]string `yaml:"env"`
	EnvKeys        []string          `yaml:"env_keys"`
	URI            string            `yaml:"uri"`
	Headers        map[string]string `yaml:"headers"`
	Timeout        float64           `yaml:"timeout"`
	AvailableTools []string          `yaml:"available_tools"`
	Command        string            `yaml:"command"`
}

// gooseParameter is one entry of "parameters".
type gooseParameter struct {
	Key         string `yaml:"key"`
	Requirement string `yaml:"requirement"`
	Default     any    `yaml:"default"`
	Description string `yaml:"description"`
}

// gooseBuiltins says why Goose's built-in and platform extensions have
// no counterpart.
var gooseBuiltins = map[string]string{
	"developer":          "Goose's developer extension (shell and text editor) has no counterpart; the files provider reads and edits files: add its tools (files.file_read, files.file_edit, ...) to the coworker",
	"computercontroller": "Goose's computer controller (scripts, browser, screen) has no counterpart in OpenWorker",
	"memory":             "Goose's memory extension has no counterpart; add a memory MCP server to the servers file, then its tools",
	"autovisualiser":     "Goose's chart extension has no counterpart in OpenWorker",
	"tutorial":           "Goose's tutorial extension has no counterpart in OpenWorker",
	"jetbrains":          "Goose's JetBrains extension has no counterpart in OpenWorker",
	"todo":               "Goose's to-do list has no counterpart in OpenWorker",
}

// looksGooseRecipe reports whether a YAML or JSON mapping is a recipe.
func looksGooseRecipe(doc *yamlDoc) bool {
	return doc.has("title") && (doc.has("instructions") || doc.has("prompt"))
}

var paramRE = regexp.MustCompile(`\{\{-?\s*([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}`)

// readGooseRecipe reads a recipe doc from path. Its extensions that are
// MCP servers are read into a servers config (in the product's form,
// their env_keys as inputs); cfg is nil when there are none.
func readGooseRecipe(path string, doc *yamlDoc) (a *agentSource, cfg *servers.Config, err error) {
	a = &agentSource{kind: KindGooseRecipe, path: path}
	var instructions, prompt string
	if err := doc.strs([]string{"title", "description", "instructions", "prompt"}, &a.name, &a.description, &instructions, &prompt); err != nil {
		return nil, nil, err
	}
	var params []gooseParameter
	if _, err := doc.decode("parameters", &params); err != nil {
		return nil, nil, err
	}
	fill, paramNotes := recipeParams(path, params)
	a.takeRecipeText(strings.TrimSpace(fill(instructions)), strings.TrimSpace(fill(prompt)), paramNotes)
	if err := a.takeGooseSettings(doc); err != nil {
		return nil, nil, err
	}
	a.ignored = append(a.ignored, doc.ignore(gooseKnown, gooseIgnored, "a Goose recipe")...)

	exts, err := gooseExtensions(doc)
	if err != nil {
		return nil, nil, err
	}
	cfg, grants, err := gooseServers(path, exts, fill)
	if err != nil {
		return nil, nil, err
	}
	a.mapTools = func(m *mapper, c *Coworker) {
		for _, g := range grants {
			g.mapTo(m, c)
		}
	}
	return a, cfg, nil
}

// recipeParams returns what fills the parameters of the recipe at path
// into a text ("recipe_dir" and those with a default; one without stays
// a placeholder) and the notes that say so.
func recipeParams(path string, params []gooseParameter) (fill func(string) string, notes []string) {
	dir, _ := filepath.Abs(filepath.Dir(path))
	values := map[string]string{"recipe_dir": dir}
	var open []string
	for _, p := range params {
		if p.Default != nil && fmt.Sprint(p.Default) != "" {
			values[p.Key] = fmt.Sprint(p.Default)
		} else if p.Key != "" {
			open = append(open, p.Key)
		}
	}
	if len(values) > 1 {
		notes = append(notes, "parameters with a default are filled in with it")
	}
	if len(open) > 0 {
		notes = append(notes, fmt.Sprintf("parameters without a default stay as placeholders ({{ %s }}): say their values in the chat", strings.Join(open, " }}, {{ ")))
	}
	fill = func(s string) string {
		return paramRE.ReplaceAllStringFunc(s, func(m string) string {
			if v, ok := values[paramRE.FindStringSubmatch(m)[1]]; ok {
				return v
			}
			return m
		})
	}
	return fill, notes
}

// takeRecipeText makes a recipe's (filled) instructions and prompt a's
// instructions, the prompt as "The task" after the instructions, and
// notes how, then the parameters' notes paramNotes, then any template
// logic left in the text.
func (a *agentSource) takeRecipeText(instructions, prompt string, paramNotes []string) {
	switch {
	case instructions != "" && prompt != "":
		a.instructions = instructions + "\n\n## The task\n\n" + prompt
		a.notes = append(a.notes, "the recipe's prompt (its first request) is in the instructions under \"The task\"")
	case instructions != "":
		a.instructions = instructions
	default:
		a.instructions = prompt
		a.notes = append(a.notes, "the recipe has only a prompt (its first request): it is the instructions")
	}
	a.notes = append(a.notes, paramNotes...)
	if strings.Contains(a.instructions, "{%") {
		a.notes = append(a.notes, "the recipe's template logic ({% ... %}) is kept as text")
	}
}

// takeGooseSettings takes a recipe's settings.goose_model as a's model;
// its other settings are ignored, in key order.
func (a *agentSource) takeGooseSettings(doc *yamlDoc) error {
	f := doc.field("settings")
	if f == nil {
		return nil
	}
	var st map[string]any
	if _, err := doc.decode("settings", &st); err != nil {
		return err
	}
	keys := make([]string, 0, len(st))
	for k := range st {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "goose_model" {
			a.takeModel("settings.goose_model", f.line, fmt.Sprint(st[k]))
			continue
		}
		a.ignored = append(a.ignored, Ignored{Field: "settings." + k, Line: f.line, Reason: "Goose's own run settings; a coworker uses the model provider of the settings"})
	}
	return nil
}

// gooseExtensions decodes "extensions": a name alone stands for an
// extension of Goose's own configuration.
func gooseExtensions(doc *yamlDoc) ([]gooseExtension, error) {
	var raw []any
	if _, err := doc.decode("extensions", &raw); err != nil {
		return nil, err
	}
	out := make([]gooseExtension, 0, len(raw))
	for i, r := range raw {
		if s, ok := r.(string); ok {
			out = append(out, gooseExtension{Type: "named", Name: s})
			continue
		}
		b, _ := json.Marshal(r)
		var e gooseExtension
		if err := yaml.Unmarshal(b, &e); err != nil {
			f := doc.field("extensions")
			return nil, fmt.Errorf("%s:%d: extensions[%d]: %v", doc.path, f.line, i, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// gooseGrant is what one extension grants the coworker.
type gooseGrant struct {
	label  string   // "extension NAME"
	server string   // the servers entry's name
	tools  []string // available_tools; none: every tool
	reason string   // why nothing is granted
}

// mapTo adds what g grants to c: its tools, every tool of its server, or
// an Unmapped with why nothing.
func (g gooseGrant) mapTo(m *mapper, c *Coworker) {
	switch {
	case g.reason != "":
		c.Unmapped = append(c.Unmapped, Unmapped{Tool: g.label, Reason: g.reason})
	case len(g.tools) > 0:
		for _, t := range g.tools {
			c.add(g.server+"/"+t, m.serverTool(g.server, t))
		}
	default:
		c.add(g.label, m.serverTool(g.server, ""))
	}
}

// gooseServers makes the servers config of a recipe's MCP extensions
// (nil when none) and says what each extension grants.
func gooseServers(path string, exts []gooseExtension, fill func(string) string) (*servers.Config, []gooseGrant, error) {
	entries := map[string]any{}
	var inputs []map[string]any
	var grants []gooseGrant
	for _, e := range exts {
		g := gooseGrant{label: "extension " + e.Name, server: e.Name, tools: e.AvailableTools}
		entry := gooseTransport(e, fill)
		if entry == nil {
			grants = append(grants, noServerGrant(g, e))
			continue
		}
		if e.Name == "" {
			return nil, nil, fmt.Errorf("%s: an extension of type %s has no name; give it one", path, e.Type)
		}
		env, in := gooseEnv(e, fill)
		inputs = append(inputs, in...)
		if len(env) > 0 && entry["transport"] == "stdio" {
			entry["env"] = env
		}
		if e.Timeout > 0 {
			entry["timeout"] = e.Timeout
		}
		entries[e.Name] = entry
		grants = append(grants, g)
	}
	if len(entries) == 0 {
		return nil, grants, nil
	}
	cfg, err := gooseConfig(path, entries, inputs)
	if err != nil {
		return nil, nil, err
	}
	return cfg, grants, nil
}

// gooseTransport returns the servers entry (transport, command and args,
// or url and headers) of an MCP extension e, its values filled; nil when
// e is not one (a named, built-in or other extension).
func gooseTransport(e gooseExtension, fill func(string) string) map[string]any {
	entry := map[string]any{}
	switch e.Type {
	case "stdio":
		entry["transport"] = "stdio"
		entry["command"] = productValue(fill(e.Cmd))
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			args[i] = productValue(fill(a))
		}
		if len(args) > 0 {
			entry["args"] = args
		}
	case "streamable_http", "sse":
		entry["transport"] = e.Type
		entry["url"] = productValue(fill(e.URI))
		if len(e.Headers) > 0 {
			h := map[string]string{}
			for k, v := range e.Headers {
				h[k] = productValue(fill(v))
			}
			entry["headers"] = h
		}
	default:
		return nil
	}
	return entry
}

// noServerGrant completes g for an extension e that is no MCP server: a
// named one grants its tools under its name; for any other, the reason
// says why it grants nothing.
func noServerGrant(g gooseGrant, e gooseExtension) gooseGrant {
	switch e.Type {
	case "named":
		g.label = e.Name
	case "builtin", "platform":
		g.reason = gooseBuiltins[e.Name]
		if g.reason == "" {
			g.reason = fmt.Sprintf("Goose's built-in extension %q has no counterpart in OpenWorker", e.Name)
		}
	default:
		g.reason = fmt.Sprintf("an extension of type %q is not an MCP server OpenWorker can start; add the server to the servers file by hand", e.Type)
	}
	return g
}

// gooseEnv returns the environment of MCP extension e (envs, then env
// where envs has no such key, filled) with each of its env_keys as an
// input, and those inputs.
func gooseEnv(e gooseExtension, fill func(string) string) (map[string]string, []map[string]any) {
	env := map[string]string{}
	var inputs []map[string]any
	for k, v := range e.Envs {
		env[k] = productValue(fill(v))
	}
	for k, v := range e.Env { // not read by Goose, but written for it
		if _, ok := env[k]; !ok {
			env[k] = productValue(fill(v))
		}
	}
	for _, k := range e.EnvKeys {
		id := e.Name + "-" + k
		env[k] = "${input:" + id + "}"
		inputs = append(inputs, map[string]any{"type": "promptString", "id": id, "description": fmt.Sprintf("%s of MCP server %q (a Goose extension)", k, e.Name), "password": true})
	}
	return env, inputs
}

// gooseConfig reads the servers entries and inputs made of the recipe at
// path's extensions as a servers config.
func gooseConfig(path string, entries map[string]any, inputs []map[string]any) (*servers.Config, error) {
	doc := map[string]any{"servers": entries}
	if len(inputs) > 0 {
		doc["inputs"] = inputs
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	cfg, err := servers.ParseConfig(path+" (extensions)", data, &servers.ConfigOptions{Format: servers.FormatOpenWorker})
	if err != nil {
		return nil, fmt.Errorf("%s: its extensions cannot be read as MCP servers: %v", path, err)
	}
	return cfg, nil
}

var envRefRE = regexp.MustCompile(`^\$\{[A-Za-z_][A-Za-z0-9_]*\}$|^\$[A-Za-z_][A-Za-z0-9_]*$`)

// productValue writes a value of another host's file in the product's
// servers.json syntax: a value that is one environment variable ("${X}"
// or "$X") stays that variable; any other "$" is literal ("$$").
func productValue(s string) string {
	if envRefRE.MatchString(s) {
		return "${" + strings.Trim(s, "${}") + "}"
	}
	return strings.ReplaceAll(s, "$", "$$")
}
