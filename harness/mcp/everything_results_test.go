//go:build unix

package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/tool"
)

// server-everything's resource links, embedded resources and structured
// content reach the model as docs/mcp.md (Results) says; its
// get-structured-content passes its own outputSchema.
func TestNPMServerEverythingResults(t *testing.T) {
	srv := everythingServer(t)
	ctx := context.Background()
	p, err := Connect(ctx, srv, &Options{StartTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	tools, err := p.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range tools {
		if rt.Name == "get-structured-content" && len(rt.OutputSchema) == 0 {
			t.Fatal("get-structured-content lists no outputSchema")
		}
	}
	if o := p.outputs.get("get-structured-content"); o == nil || o.err != nil {
		t.Fatalf("get-structured-content's outputSchema did not compile: %+v", o)
	}

	out, err := p.CallTool(ctx, "get-resource-links", json.RawMessage(`{"count":2}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "resource links", out.ModelText(),
		"Here are 2 resource links to resources available in this server:\n",
		`[resource link demo://resource/dynamic/blob/1 "Blob Resource 1", MIME type text/plain, description "Resource 1: plaintext resource"]`,
		`[resource link demo://resource/dynamic/text/2 "Text Resource 2", MIME type text/plain, description "Resource 2: plaintext resource"]`)
	if len(out.Content) != 3 || out.Content[1].Type != tool.BlockResourceLink || out.Content[2].Name != "Text Resource 2" {
		t.Errorf("resource links Content = %+v", out.Content)
	}

	out, err = p.CallTool(ctx, "get-resource-reference", json.RawMessage(`{"resourceType":"Text","resourceId":4}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "embedded text resource", out.ModelText(),
		"[embedded resource demo://resource/dynamic/text/4, MIME type text/plain]\nResource 4: This is a plaintext resource created at ",
		"You can access this resource using the URI: demo://resource/dynamic/text/4")

	out, err = p.CallTool(ctx, "get-resource-reference", json.RawMessage(`{"resourceType":"Blob","resourceId":3}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "embedded blob resource", out.ModelText(), "[embedded resource demo://resource/dynamic/blob/3, MIME type text/plain, ", " bytes, not shown]")
	if len(out.Content) != 3 || out.Content[1].Bytes == 0 || out.Content[1].Text != "" || strings.Contains(out.ModelText(), "base64") {
		t.Errorf("blob resource Content = %+v", out.Content)
	}

	// (server-everything labels its blobs text/plain.) A data: URL, so
	// nothing leaves the machine.
	out, err = p.CallTool(ctx, "gzip-file-as-resource", json.RawMessage(`{"name":"hello.txt.gz","data":"data:text/plain;base64,aGVsbG8gPGI+d29ybGQ8L2I+","outputType":"resource"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Content) != 1 || out.Content[0].Type != tool.BlockResource || out.Content[0].MIMEType != "application/gzip" || out.Content[0].Bytes < 20 {
		t.Errorf("gzip resource Content = %+v", out.Content)
	}
	mustContain(t, "gzip resource", out.ModelText(), "MIME type application/gzip, ", " bytes, not shown]")

	out, err = p.CallTool(ctx, "get-structured-content", json.RawMessage(`{"location":"Los Angeles"}`), nil)
	if err != nil {
		t.Fatalf("get-structured-content = %v; want it to pass its own outputSchema", err)
	}
	if out.ModelText() != `{"conditions":"Sunny / Clear","humidity":48,"temperature":73}` || out.Content != nil {
		t.Errorf("get-structured-content: the model gets %q, Content %+v; want the JSON once", out.ModelText(), out.Content)
	}
}
