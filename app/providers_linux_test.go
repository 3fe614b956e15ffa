package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// providerChildren counts the live child processes of this test process
// that run this executable: the device MCP provider processes.
func providerChildren(t *testing.T) int {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range entries {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) < 2 || f[0] == "Z" || f[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		if target, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); target == exe {
			n++
		}
	}
	return n
}

// TestSettingsChangesKeepOneProviderProcess: twenty changes of the model
// and the approval mode, with a chat using a stdio provider open, open no
// runtime and start no provider process: there is one before and after,
// the open chat keeps what it was opened with, and new chats get the new
// settings on the same process.
func TestSettingsChangesKeepOneProviderProcess(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers := filepath.Join(t.TempDir(), "servers.json")
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"device": map[string]any{
		"transport": "stdio", "command": exe, "env": map[string]string{serveDeviceEnv: "1"}}}})
	if err := os.WriteFile(servers, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers, Approve: "bypass"}, replies: []modeltest.Reply{
		{ToolCalls: []model.ToolCall{{ID: "c1", Name: "device__battery_status_get", Arguments: `{}`}}},
		{Text: "battery read"},
	}})
	writeBundle(t, e.bundles, "dev", "device.battery_status_get")
	chat, err := e.app.Chats.OpenChat("dev")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.app.Chats.Send(chat.SessionID, "battery?")
	if err != nil || res.Status != "completed" || res.Calls != 1 {
		t.Fatalf("turn = %+v, %v; want one call, completed", res, err)
	}
	if n := providerChildren(t); n != 1 {
		t.Fatalf("%d provider processes after the first call; want 1", n)
	}
	for i := range 20 {
		v, _ := e.app.Preferences.GetSettings()
		s := v.Settings
		s.OpenAI.Model = fmt.Sprintf("model-%d", i)
		s.ApprovalMode = []string{"ask", "bypass"}[i%2]
		if _, err := e.app.Preferences.SaveSettings(s); err != nil {
			t.Fatal(err)
		}
		if i%5 == 4 { // new chats use the new settings on the same process
			c, err := e.app.Chats.OpenChat("dev")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(c.Model, s.OpenAI.Model) || c.ApprovalMode != s.ApprovalMode {
				t.Errorf("new chat after change %d: model %q, approval %q; want %s and %s", i, c.Model, c.ApprovalMode, s.OpenAI.Model, s.ApprovalMode)
			}
			if err := e.app.Chats.CloseChat(c.SessionID); err != nil {
				t.Fatal(err)
			}
		}
		if n := providerChildren(t); n != 1 {
			t.Fatalf("after settings change %d: %d provider processes; want 1", i+1, n)
		}
	}
	if got := e.app.engine.runtime().RunningProviders(); len(got) != 1 {
		t.Errorf("running providers = %v; want one", got)
	}
	again, err := e.app.Chats.ResumeChat(chat.SessionID) // the open chat, as it is
	if err != nil {
		t.Fatal(err)
	}
	if again.Model != chat.Model || again.ApprovalMode != "bypass" || strings.Contains(again.Model, "model-19") {
		t.Errorf("the open chat now says model %q, approval %q; want what it was opened with (%q, bypass)", again.Model, again.ApprovalMode, chat.Model)
	}
	if info, _ := e.app.Window.Info(); !strings.Contains(info.Model, "model-19") || info.ApprovalMode != "bypass" {
		t.Errorf("Info = model %q approval %q; want the settings new chats use", info.Model, info.ApprovalMode)
	}
}

// TestServersFileLiveReload: an edit of servers.json applies while the
// app runs (no restart): a new provider is there for the coworkers list and
// new chats, an unchanged one keeps its process, a broken edit is a notice
// naming the file and line and changes nothing, and Settings can switch
// the file off.
func TestServersFileLiveReload(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers := filepath.Join(t.TempDir(), "servers.json")
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(servers, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entry := func(extra string) string {
		b, _ := json.Marshal(map[string]any{"transport": "stdio", "command": exe, "env": map[string]string{serveDeviceEnv: "1", "EXTRA": extra}})
		return string(b)
	}
	write(`{"servers": {"device": ` + entry("a") + `}}`)
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers, Approve: "bypass"}})
	writeBundle(t, e.bundles, "dev", "device.battery_status_get")
	writeBundle(t, e.bundles, "dev2", "device2.battery_status_get")
	listed := func(l CoworkerList, id string) bool {
		for _, c := range l.Coworkers {
			if c.ID == id {
				return true
			}
		}
		return false
	}
	if _, err := e.app.Chats.OpenChat("dev"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Chats.OpenChat("dev2"); err == nil {
		t.Fatal("dev2 opened before its provider was added")
	}

	write(`{"servers": {"device": ` + entry("a") + `, "device2": ` + entry("b") + `}}`)
	e.rec.waitFor(t, EventCoworkersChanged, func(p any) bool { return listed(p.(CoworkerList), "dev2") })
	if _, err := e.app.Chats.OpenChat("dev2"); err != nil {
		t.Fatalf("dev2 after the edit: %v", err)
	}
	if n := providerChildren(t); n != 2 {
		t.Errorf("%d provider processes; want 2 (device kept its process, device2 started)", n)
	}

	// A file that cannot be read at all changes nothing.
	write("{\"servers\": {\n  \"device\": {\"transport\": \"stdio\" \"command\": \"x\"}}}")
	n := e.rec.waitFor(t, EventNotice, func(p any) bool { return strings.Contains(p.(Notice).Message, servers+":2:") }).(Notice)
	if n.Level != NoticeError {
		t.Errorf("notice = %+v", n)
	}
	if _, err := e.app.Chats.OpenChat("dev2"); err != nil {
		t.Errorf("a broken servers.json dropped the providers in use: %v", err)
	}
	if v, _ := e.app.Preferences.GetSettings(); !strings.Contains(v.ServersError, servers+":2:") || !v.ServersUnreadable {
		t.Errorf("ServersError = %q, unreadable %v; want the file and line, and the whole file named unreadable", v.ServersError, v.ServersUnreadable)
	}

	// One bad entry disables only its provider: device2 stays, device is
	// broken with its file and line.
	write("{\"servers\": {\n  \"device\": {\"transport\": \"stdio\", \"comand\": \"x\"},\n  \"device2\": " + entry("b") + "}}")
	n = e.rec.waitFor(t, EventNotice, func(p any) bool {
		return strings.Contains(p.(Notice).Message, servers+`:2:3: server "device" has no "command"`)
	}).(Notice)
	if _, err := e.app.Chats.OpenChat("dev2"); err != nil {
		t.Errorf("a bad entry of another provider stopped dev2: %v", err)
	}
	if _, err := e.app.Chats.OpenChat("dev"); err == nil || !strings.Contains(err.Error(), servers+`:2:3`) {
		t.Errorf("dev with its provider broken: %v; want the entry's file and line", err)
	}
	if v, _ := e.app.Preferences.GetSettings(); !strings.Contains(v.ServersError, servers+":2:3") || v.ServersUnreadable || len(v.ServersNotices) != 1 || !strings.Contains(v.ServersNotices[0], `unknown key "comand"`) {
		t.Errorf("ServersError = %q, unreadable %v, notices %q", v.ServersError, v.ServersUnreadable, v.ServersNotices)
	}

	v, _ := e.app.Preferences.GetSettings()
	s := v.Settings
	s.ServersPath = ""
	if v, err = e.app.Preferences.SaveSettings(s); err != nil || v.ServersError != "" || v.ServersLoaded != "" {
		t.Fatalf("SaveSettings without servers.json = %+v, %v", v, err)
	}
	if _, err := e.app.Chats.OpenChat("dev"); err == nil {
		t.Error("dev opened after servers.json was switched off")
	}
}
