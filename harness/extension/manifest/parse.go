package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/openworker/desktop/harness/internal/jsonfile"
)

// MaxSize is the largest manifest.json Parse reads, in bytes (1 MiB);
// values nest at most jsonfile.MaxDepth (64) deep.
const MaxSize = jsonfile.MaxSize

// Parse reads data, the bytes of a manifest.json (file names it in
// messages, usually "manifest.json"), and validates it:
//
//  1. strict JSON: duplicate keys, trailing data, more than MaxSize bytes or
//     nesting deeper than 64 are errors (a UTF-8 BOM is ignored);
//  2. manifest_version (or the legacy dxt_version) picks the schema among
//     Versions; a missing or unknown version is an error listing them;
//  3. the vendored JSON schema of that version (schemas/README.md);
//  4. when the schema passes, OpenWorker's own rules (docs/extensions-manifest.md#what-is-refused):
//     a name and version usable as folder names, a relative entry point,
//     known ${…} variables, user_config defaults of the field's type, …
//
// The error is a *Error listing every problem of the failing step with its
// line and column. Parse never panics and never reads files.
func Parse(data []byte, file string) (*Manifest, error) {
	if len(data) > MaxSize {
		return nil, &Error{File: file, Problems: []Problem{{Msg: fmt.Sprintf("the file is %d bytes; the limit is %d bytes (1 MiB)", len(data), MaxSize), Fix: "make it smaller"}}}
	}
	if i := invalidUTF8(data); i >= 0 {
		line, col := jsonfile.Position(data, i)
		return nil, &Error{File: file, Problems: []Problem{{Line: line, Col: col, Msg: "the file is not valid UTF-8 here", Fix: "save it as UTF-8"}}}
	}
	root, err := jsonfile.Parse(file, data)
	if err != nil {
		return nil, fromJSONFile(file, err)
	}
	if root.Kind != jsonfile.Object {
		return nil, &Error{File: file, Problems: []Problem{{Line: root.Line, Col: root.Col, Msg: fmt.Sprintf("the manifest must be a JSON object, not %s", root.Kind), Fix: "write { \"manifest_version\": \"0.4\", \"name\": …, … }"}}}
	}
	version, p := pickVersion(root)
	if p != nil {
		return nil, &Error{File: file, Problems: []Problem{*p}}
	}
	problems, err := validate(version, data, root)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, newError(file, problems)
	}
	if problems := hugeNumbers(root, nil); len(problems) > 0 {
		return nil, newError(file, problems)
	}
	m, err := decode(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), root)
	if err != nil { // the schema passed, so this is a defect; say so plainly
		return nil, &Error{File: file, Problems: []Problem{{Line: 1, Col: 1, Msg: "cannot read the manifest: " + err.Error()}}}
	}
	m.ManifestVersion = version
	if problems := check(m, root); len(problems) > 0 {
		return nil, newError(file, problems)
	}
	return m, nil
}

func newError(file string, problems []Problem) *Error {
	sort.SliceStable(problems, func(i, j int) bool {
		a, b := problems[i], problems[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	problems = slices.Compact(problems)
	e := &Error{File: file, Problems: problems}
	if len(problems) > MaxProblems {
		e.Problems, e.More = problems[:MaxProblems], len(problems)-MaxProblems
	}
	return e
}

// pickVersion returns the manifest version the file declares, or the
// problem with it. manifest_version wins over dxt_version (as mcpb does);
// the schema then checks that both agree.
func pickVersion(root *jsonfile.Node) (string, *Problem) {
	supported := strings.Join(Versions, ", ")
	for _, key := range []string{"manifest_version", "dxt_version"} {
		f := root.Field(key)
		if f == nil {
			continue
		}
		v := f.Value
		if v.Kind != jsonfile.String {
			return "", &Problem{Line: v.Line, Col: v.Col, Path: key, Msg: fmt.Sprintf("must be a string, not %s", v.Kind), Fix: fmt.Sprintf(`write "%s"; supported versions: %s`, Versions[len(Versions)-1], supported)}
		}
		if !slices.Contains(Versions, v.Str) {
			return "", &Problem{Line: v.Line, Col: v.Col, Path: key, Msg: fmt.Sprintf("manifest version %s is not supported", display(v.Str)), Fix: "supported versions: " + supported}
		}
		return v.Str, nil
	}
	return "", &Problem{Line: root.Line, Col: root.Col, Msg: "manifest_version is missing", Fix: fmt.Sprintf(`add "manifest_version": "%s"; supported versions: %s`, Versions[len(Versions)-1], supported)}
}

// rawManifest is the JSON shape of the fields decode takes from the file.
type rawManifest struct {
	Name             string              `json:"name"`
	Version          string              `json:"version"`
	DisplayName      string              `json:"display_name"`
	Description      string              `json:"description"`
	LongDescription  string              `json:"long_description"`
	Author           rawAuthor           `json:"author"`
	Homepage         string              `json:"homepage"`
	Repository       *Repository         `json:"repository"`
	Documentation    string              `json:"documentation"`
	Support          string              `json:"support"`
	Icon             string              `json:"icon"`
	Icons            []Icon              `json:"icons"`
	Server           rawServer           `json:"server"`
	Tools            []Tool              `json:"tools"`
	ToolsGenerated   bool                `json:"tools_generated"`
	Prompts          []Prompt            `json:"prompts"`
	PromptsGenerated bool                `json:"prompts_generated"`
	UserConfig       map[string]rawField `json:"user_config"`
	Compatibility    struct {
		Platforms     []string `json:"platforms"`
		Runtimes      Runtimes `json:"runtimes"`
		ClaudeDesktop string   `json:"claude_desktop"`
	} `json:"compatibility"`
	PrivacyPolicies []string `json:"privacy_policies"`
	Keywords        []string `json:"keywords"`
	License         string   `json:"license"`
}

type rawAuthor struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	URL   string `json:"url"`
}

type rawServer struct {
	Type       string `json:"type"`
	EntryPoint string `json:"entry_point"`
	MCPConfig  *struct {
		Command           string                 `json:"command"`
		Args              []string               `json:"args"`
		Env               map[string]string      `json:"env"`
		PlatformOverrides map[string]rawOverride `json:"platform_overrides"`
	} `json:"mcp_config"`
}

type rawOverride struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

type rawField struct {
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Default     any      `json:"default"`
	Multiple    bool     `json:"multiple"`
	Sensitive   bool     `json:"sensitive"`
	Min         *float64 `json:"min"`
	Max         *float64 `json:"max"`
}

// decode fills a Manifest from data, which passed the schema; root gives
// the order and positions of user_config.
func decode(data []byte, root *jsonfile.Node) (*Manifest, error) {
	var r rawManifest
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	m := &Manifest{
		Name: r.Name, Version: r.Version, DisplayName: r.DisplayName,
		Description: r.Description, LongDescription: r.LongDescription,
		Author:   Author(r.Author),
		Homepage: r.Homepage, Repository: r.Repository, Documentation: r.Documentation, Support: r.Support,
		Icon: r.Icon, Icons: r.Icons,
		Server: Server{Type: r.Server.Type, EntryPoint: r.Server.EntryPoint},
		Tools:  r.Tools, ToolsGenerated: r.ToolsGenerated,
		Prompts: r.Prompts, PromptsGenerated: r.PromptsGenerated,
		Compatibility: Compatibility{
			Platforms: r.Compatibility.Platforms, Runtimes: r.Compatibility.Runtimes,
			ClaudeDesktop: r.Compatibility.ClaudeDesktop,
		},
		PrivacyPolicies: r.PrivacyPolicies, Keywords: r.Keywords, License: r.License,
	}
	if c := r.Server.MCPConfig; c != nil {
		m.Server.MCPConfig = &MCPConfig{Command: c.Command, Args: c.Args, Env: c.Env}
		if len(c.PlatformOverrides) > 0 {
			m.Server.MCPConfig.PlatformOverrides = map[string]Override{}
			for k, o := range c.PlatformOverrides {
				m.Server.MCPConfig.PlatformOverrides[k] = Override(o)
			}
		}
	}
	if uc := root.Field("user_config"); uc != nil {
		for _, f := range uc.Value.Fields {
			rf := r.UserConfig[f.Key]
			m.UserConfig = append(m.UserConfig, Field{
				Key: f.Key, Type: rf.Type, Title: rf.Title, Description: rf.Description,
				Required: rf.Required, Default: normalizeDefault(rf.Default), Multiple: rf.Multiple,
				Sensitive: rf.Sensitive, Min: rf.Min, Max: rf.Max, Line: f.Line, Col: f.Col,
			})
		}
	}
	return m, nil
}

// normalizeDefault turns a decoded []any of strings into []string.
func normalizeDefault(v any) any {
	items, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, _ := it.(string) // the schema allows only strings
		out = append(out, s)
	}
	return out
}

// invalidUTF8 is the offset of the first byte that is not UTF-8, or -1.
func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// hugeNumbers reports numbers that do not fit a float64 (1e400): the
// schema accepts them, Go cannot hold them.
func hugeNumbers(n *jsonfile.Node, out []Problem) []Problem {
	switch n.Kind {
	case jsonfile.Number:
		if _, err := strconv.ParseFloat(string(n.Num), 64); err != nil {
			out = append(out, Problem{Line: n.Line, Col: n.Col, Path: n.Path, Msg: fmt.Sprintf("the number %s is too large", clip(string(n.Num))), Fix: "write a smaller number"})
		}
	case jsonfile.Array:
		for _, it := range n.Items {
			out = hugeNumbers(it, out)
		}
	case jsonfile.Object:
		for _, f := range n.Fields {
			out = hugeNumbers(f.Value, out)
		}
	}
	return out
}
