package app

import (
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/extension/extensiontest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// extEchoCall is one call of echo.echo with text and the model's answer after it.
func extEchoCall(id, text string) []modeltest.Reply {
	return []modeltest.Reply{{ToolCalls: []model.ToolCall{{ID: id, Name: "echo__echo", Arguments: `{"text":"` + text + `"}`}}}, {Text: "Echoed."}}
}

// runEcho opens a chat of parrot, sends a message, answers its one
// approval and returns the request it showed.
func runEcho(t *testing.T, e *testEnv) PendingApproval {
	t.Helper()
	chat, err := e.app.Chats.OpenChat("parrot")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "echo")
	p := e.rec.waitFor(t, EventApprovalRequest, func(v any) bool { return v.(PendingApproval).Request.SessionID == chat.SessionID }).(PendingApproval)
	if err := e.app.Asks.RespondApproval(p.ID, "allow_once"); err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, done); res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v", res)
	}
	if err := e.app.Chats.CloseChat(chat.SessionID); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExtensionSandboxInTheApp: the installer's "Run it in a sandbox" box
// and the Settings toggle on a real binary extension (a Go MCP server
// packed by mcpb). Installed with the box on, its record has the default
// preset; the coworker card and the consent request say "sandboxed: …"
// in the same words, with its settings' folder added, the request's
// placement is "on this computer (sandboxed: …)", and the call runs
// inside the sandbox and answers. The toggle off gives new chats full
// access without a restart; an upgrade's box starts at the installed
// choice, and the install applies the box as it is then.
func TestExtensionSandboxInTheApp(t *testing.T) {
	if why := sandboxUnsupported(); why != "" {
		t.Skipf("this kernel cannot enforce the default sandbox: %s", why)
	}
	work := t.TempDir()
	var replies []modeltest.Reply
	replies = append(replies, extEchoCall("c1", "boxed")...)
	replies = append(replies, extEchoCall("c2", "free")...)
	e := newTestEnv(t, envOpts{replies: replies})
	writeBundle(t, e.bundles, "parrot", "echo.echo")
	file := extensiontest.Echo(t, "1.0.0", 0o755, false)
	p, err := e.app.Extensions.PreviewExtension(file)
	if err != nil {
		t.Fatal(err)
	}
	if p.Sandbox != (ExtensionSandbox{Words: SandboxPresetWords, Note: SandboxNote}) {
		t.Fatalf("preview sandbox = %+v; want the box off for a new install, and enforceable", p.Sandbox)
	}
	values := map[string]any{"prefix": "app", "token": "tok-sbx", "workdir": work}
	if _, err := e.app.Extensions.InstallExtension(file, p.Digest, values, true); err != nil {
		t.Fatal(err)
	}
	list, err := e.app.Extensions.Extensions()
	if err != nil || len(list) != 1 || !list[0].Sandboxed || list[0].Access != tool.DefaultSandbox().Words() {
		t.Fatalf("Extensions() = %+v, %v; want it in the default sandbox", list, err)
	}
	card, err := e.app.Coworkers.Coworkers()
	if err != nil {
		t.Fatal(err)
	}
	var echo *ResolvedToolInfo
	for _, c := range card.Coworkers {
		for i := range c.Tools {
			if c.ID == "parrot" && c.Tools[i].Name == "echo.echo" {
				echo = &c.Tools[i]
			}
		}
	}
	// The server's sandbox adds the folder of its settings to the preset.
	access := strings.Replace(tool.DefaultSandbox().Words(), "its temp folder", "its temp folder and "+work, 1)
	access = strings.Replace(access, "the workspace and its temp", "the workspace, its temp", 1)
	if echo == nil || echo.Access != access || echo.Placement != "on this computer ("+access+")" || echo.ProgramPath == "" {
		t.Fatalf("coworker card tool = %+v; want access %q", echo, access)
	}
	req := runEcho(t, e).Request
	if req.Access != access || req.Placement != "on this computer ("+access+")" {
		t.Fatalf("consent request access %q, placement %q; want %q", req.Access, req.Placement, access)
	}
	if res := e.model.Requests()[1].ToolResults(); len(res) != 1 || res[0].Text != "app: boxed" {
		t.Fatalf("inside the sandbox the model saw %+v", res)
	}

	// The toggle off: new chats run it with full access.
	list, err = e.app.Extensions.SetExtensionSandbox("echo", false)
	if err != nil || len(list) != 1 || list[0].Sandboxed || list[0].Access != tool.FullAccess {
		t.Fatalf("SetExtensionSandbox(off) = %+v, %v", list, err)
	}
	if req := runEcho(t, e).Request; req.Access != tool.FullAccess || req.Placement != "on this computer" {
		t.Fatalf("after the toggle off: access %q, placement %q", req.Access, req.Placement)
	}
	if res := e.model.Requests()[3].ToolResults(); len(res) != 1 || res[0].Text != "app: free" {
		t.Fatalf("with full access the model saw %+v", res)
	}

	// On again; an upgrade's box starts on, and the install applies it off.
	if list, err = e.app.Extensions.SetExtensionSandbox("echo", true); err != nil || !list[0].Sandboxed {
		t.Fatalf("SetExtensionSandbox(on) = %+v, %v", list, err)
	}
	up := extensiontest.Echo(t, "1.1.0", 0o755, false)
	if p, err = e.app.Extensions.PreviewExtension(up); err != nil || p.Installed != "1.0.0" || !p.Sandbox.On {
		t.Fatalf("upgrade preview = installed %q, sandbox %+v, %v; want the box on as installed", p.Installed, p.Sandbox, err)
	}
	if _, err := e.app.Extensions.InstallExtension(up, p.Digest, values, false); err != nil {
		t.Fatal(err)
	}
	if list, err = e.app.Extensions.Extensions(); err != nil || list[0].Version != "1.1.0" || list[0].Sandboxed {
		t.Fatalf("after the upgrade with the box off: %+v, %v", list, err)
	}
}

// TestExtensionSandboxRefusedWhereItCannotBeEnforced: on a kernel whose
// Landlock is too old (simulated with OPENWORKER_SANDBOX_MAX_ABI), the
// preview says why and the box is disabled; an install with the box on is
// refused before anything is written, and the toggle cannot turn it on.
func TestExtensionSandboxRefusedWhereItCannotBeEnforced(t *testing.T) {
	t.Setenv("OPENWORKER_SANDBOX_MAX_ABI", "2")
	e := newTestEnv(t, envOpts{})
	file := extensiontest.Echo(t, "1.0.0", 0o755, false)
	p, err := e.app.Extensions.PreviewExtension(file)
	if err != nil {
		t.Fatal(err)
	}
	if p.Sandbox.Unsupported == "" || p.Sandbox.On {
		t.Fatalf("preview sandbox = %+v; want the reason it cannot be enforced", p.Sandbox)
	}
	values := map[string]any{"prefix": "app", "token": "tok-sbx"}
	if _, err := e.app.Extensions.InstallExtension(file, p.Digest, values, true); err == nil || !strings.Contains(err.Error(), "cannot run in a sandbox") {
		t.Fatalf("install with the box on = %v; want it refused", err)
	}
	if list, _ := e.app.Extensions.Extensions(); len(list) != 0 {
		t.Fatalf("a refused install left %+v", list)
	}
	if _, err := e.app.Extensions.InstallExtension(file, p.Digest, values, false); err != nil {
		t.Fatal(err)
	}
	list, err := e.app.Extensions.Extensions()
	if err != nil || len(list) != 1 || list[0].Sandboxed || list[0].SandboxUnsupported != p.Sandbox.Unsupported {
		t.Fatalf("Extensions() = %+v, %v", list, err)
	}
	if _, err := e.app.Extensions.SetExtensionSandbox("echo", true); err == nil {
		t.Fatal("the toggle turned on a sandbox this system cannot enforce")
	}
	if list, _ := e.app.Extensions.Extensions(); list[0].Sandboxed {
		t.Fatal("the refused toggle changed the record")
	}
}
