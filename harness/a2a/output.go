package a2a

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"

	"github.com/openworker/desktop/harness/tool"
)

// partJSON is one part of a result as Structured holds it. File parts
// keep their name, MIME type and URI; inline bytes are counted, never
// copied (docs/a2a.md#calls).
type partJSON struct {
	Kind     string         `json:"kind"`
	Text     string         `json:"text,omitempty"`
	Data     map[string]any `json:"data,omitempty"`
	Name     string         `json:"name,omitempty"`
	MIMEType string         `json:"mime_type,omitempty"`
	URI      string         `json:"uri,omitempty"`
	Bytes    int            `json:"bytes,omitempty"`
}

type artifactJSON struct {
	ID          string     `json:"artifact_id"`
	Name        string     `json:"name,omitempty"`
	Description string     `json:"description,omitempty"`
	Parts       []partJSON `json:"parts"`
}

type resultJSON struct {
	TaskID    string         `json:"task_id,omitempty"`
	State     string         `json:"state,omitempty"`
	Artifacts []artifactJSON `json:"artifacts,omitempty"`
	Message   []partJSON     `json:"message,omitempty"` // a direct reply without a task
}

// outputOf is the Output of a task's artifacts, or of a direct reply.
func outputOf(taskID, state string, arts []*a2a.Artifact, reply *a2a.Message) tool.Output {
	v := resultJSON{TaskID: taskID, State: state}
	var text []string
	for _, a := range arts {
		if a == nil {
			continue
		}
		aj := artifactJSON{ID: string(a.ID), Name: a.Name, Description: a.Description, Parts: []partJSON{}}
		for _, p := range a.Parts {
			pj, t := partOf(p)
			aj.Parts = append(aj.Parts, pj)
			if t != "" {
				text = append(text, t)
			}
		}
		v.Artifacts = append(v.Artifacts, aj)
	}
	if reply != nil {
		for _, p := range reply.Parts {
			pj, t := partOf(p)
			v.Message = append(v.Message, pj)
			if t != "" {
				text = append(text, t)
			}
		}
	}
	raw, _ := json.Marshal(v)
	return tool.Output{Structured: raw, Text: strings.Join(text, "\n\n")}
}

// partOf renders one part for Structured and for the model's text.
func partOf(p a2a.Part) (partJSON, string) {
	switch p := p.(type) {
	case a2a.TextPart:
		return partJSON{Kind: "text", Text: p.Text}, p.Text
	case a2a.DataPart:
		raw, _ := json.Marshal(p.Data)
		return partJSON{Kind: "data", Data: p.Data}, string(raw)
	case a2a.FilePart:
		switch f := p.File.(type) {
		case a2a.FileURI:
			return partJSON{Kind: "file", Name: f.Name, MIMEType: f.MimeType, URI: f.URI},
				fmt.Sprintf("[file %s (%s) at %s]", orElse(f.Name, "without a name"), orElse(f.MimeType, "type unknown"), f.URI)
		case a2a.FileBytes:
			n := len(f.Bytes) * 3 / 4 // base64
			return partJSON{Kind: "file", Name: f.Name, MIMEType: f.MimeType, Bytes: n},
				fmt.Sprintf("[file %s (%s), %d bytes, not shown]", orElse(f.Name, "without a name"), orElse(f.MimeType, "type unknown"), n)
		}
	}
	return partJSON{Kind: "unknown"}, ""
}
