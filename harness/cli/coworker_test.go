package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// ow runs the built binary with args and stdin, and returns stdout,
// stderr and the exit code.
func ow(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = binEnv(t)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("openworker %v: %v", args, err)
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// TestCoworkerNewThenCheck: a coworker made with `coworker new` is a
// bundle in the documented layout that `check` resolves (its tool is the
// binary's own device provider), with the instructions, folder and model
// given; tools add and remove change it and check still passes.
func TestCoworkerNewThenCheck(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "coworkers") // created by new
	folder := t.TempDir()
	instr := filepath.Join(t.TempDir(), "instructions.md")
	os.WriteFile(instr, []byte("\n# System helper\n\nAnswer with the system's facts.\n"), 0o644)
	out, errOut, code := ow(t, "", "coworker", "new", "sysinfo", "--coworkers", dir, "--name", "System helper", "--description", "Reads system facts.",
		"--tool", "device.system_info_get", "--instructions-file", instr, "--folder", folder, "--model", "gpt-4.1-mini")
	if code != 0 {
		t.Fatalf("coworker new = exit %d\n%s%s", code, out, errOut)
	}
	bdir := filepath.Join(dir, "sysinfo")
	if want := "created coworker sysinfo at " + bdir + " with 1 tool\n"; out != want {
		t.Errorf("coworker new printed %q, want %q", out, want)
	}
	manifest, _ := os.ReadFile(filepath.Join(bdir, "coworker", "manifest.md"))
	wantFolder := folder
	if runtime.GOOS == "windows" {
		wantFolder = strconv.Quote(folder) // C:\… is written quoted, a YAML string that reads back as written
	}
	wantM := "---\nid: sysinfo\nname: System helper\ndescription: Reads system facts.\nmodel: gpt-4.1-mini\nfolder: " + wantFolder + "\n---\n# System helper\n\nAnswer with the system's facts.\n"
	if string(manifest) != wantM {
		t.Errorf("manifest.md = %q\nwant %q", manifest, wantM)
	}
	tools, _ := os.ReadFile(filepath.Join(bdir, "coworker", "tools.json"))
	if string(tools) != "{\n  \"version\": 3,\n  \"tools\": [\n    \"device.system_info_get\"\n  ]\n}\n" {
		t.Errorf("tools.json = %q", tools)
	}
	check := func() {
		t.Helper()
		out, errOut, code := ow(t, "", "check", "--coworkers", dir)
		if code != 0 || !strings.Contains(out, "ok      sysinfo (") {
			t.Fatalf("check = exit %d\n%s%s", code, out, errOut)
		}
	}
	check()

	out, errOut, code = ow(t, "", "coworker", "tools", "add", "sysinfo", "device.battery_status_get", "device.system_info_get", "--coworkers", dir)
	if code != 0 || out != "added device.battery_status_get; coworker sysinfo now has 2 tools\ncoworker sysinfo selects device.system_info_get already\n" {
		t.Fatalf("tools add = exit %d\n%s%s", code, out, errOut)
	}
	check()
	out, errOut, code = ow(t, "", "check", "--coworkers", dir, "--json")
	var rep struct {
		OK []struct {
			ID    string `json:"id"`
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"ok"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || len(rep.OK) != 1 || len(rep.OK[0].Tools) != 2 {
		t.Fatalf("check --json = exit %d, %v\n%s%s", code, err, out, errOut)
	}

	out, errOut, code = ow(t, "", "coworker", "tools", "remove", "sysinfo", "device.system_info_get", "--coworkers", dir)
	if code != 0 || out != "removed device.system_info_get; coworker sysinfo now has 1 tool\n" {
		t.Fatalf("tools remove = exit %d\n%s%s", code, out, errOut)
	}
	check()
	_, errOut, code = ow(t, "", "coworker", "tools", "remove", "sysinfo", "device.nope", "--coworkers", dir)
	if code != 2 || !strings.Contains(errOut, `coworker "sysinfo" does not select device.nope; its tools: device.battery_status_get`) {
		t.Errorf("removing a tool not selected = exit %d\n%s", code, errOut)
	}
	_, errOut, code = ow(t, "", "coworker", "new", "sysinfo", "--coworkers", dir, "--name", "Again")
	if code != 2 || !strings.Contains(errOut, `coworker "sysinfo" exists already at `+bdir+"; choose another id") {
		t.Errorf("new over an existing id = exit %d\n%s", code, errOut)
	}
}

// TestCoworkerNewErrors: bad input names the flag it came from, with the
// loader's message and fix, exits 2 and writes nothing.
func TestCoworkerNewErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"Notes", "--name", "N"}, `ID: id "Notes" is not valid; use 1 to 64 lowercase letters, digits, '_' or '-', starting with a letter or digit`},
		{[]string{"notes", "--name", "N", "--tool", "web_search"}, `--tool: tool name "web_search" is not qualified; write it as namespace.tool`},
		{[]string{"notes", "--name", "N", "--tool", "a.b", "--tool", "a.b"}, `--tool: "a.b" is listed twice`},
		{[]string{"notes", "--name", "N", "--tool", "device__battery_status_get"}, `--tool: "device__battery_status_get" is a model alias, not a tool name; write the qualified name "device.battery_status_get"`},
		{[]string{"notes", "--name", "N\u202e"}, `--name: name holds the bidirectional formatting character U+202E`},
		{[]string{"notes", "--name", "N", "--model", "two\nlines"}, `--model: model holds the control character U+000A`},
		{[]string{"notes"}, "coworker new needs --name NAME"},
		{[]string{"notes", "--name", "N", "--instructions-file", filepath.Join(dir, "missing.md")}, "--instructions-file: open "},
	}
	for _, tc := range tests {
		args := append([]string{"coworker", "new"}, tc.args...)
		args = append(args, "--coworkers", dir)
		_, errOut, code := ow(t, "", args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("coworker new %q = exit %d\n%s\nwant exit 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused coworkers left %v", entries)
	}
	// Instructions from standard input.
	_, errOut, code := ow(t, "Say hello.\n", "coworker", "new", "greeter", "--coworkers", dir, "--name", "Greeter", "--instructions-file", "-")
	m, _ := os.ReadFile(filepath.Join(dir, "greeter", "coworker", "manifest.md"))
	if code != 0 || string(m) != "---\nid: greeter\nname: Greeter\n---\nSay hello.\n" {
		t.Errorf("new with stdin instructions = exit %d %s\n%q", code, errOut, m)
	}
}

// TestCoworkerList: every coworker folder, broken ones with their
// problems at file and line, linked ones with their target; the trash
// and hidden folders are not listed.
func TestCoworkerList(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, e, code := ow(t, "", "coworker", "new", "good", "--coworkers", dir, "--name", "Good one", "--description", "Works.", "--tool", "device.system_info_get"); code != 0 {
		t.Fatal(e)
	}
	broken := filepath.Join(dir, "broken", "coworker")
	os.MkdirAll(broken, 0o755)
	os.WriteFile(filepath.Join(broken, "manifest.md"), []byte("---\nid: broken\nname: Broken\npolicy:\n  device.x: maybe\n---\nHelp.\n"), 0o644)
	os.WriteFile(filepath.Join(broken, "tools.json"), []byte(`{"version": 3, "tools": ["device.x"]}`), 0o644)
	target := filepath.Join(t.TempDir(), "linked")
	if _, e, code := ow(t, "", "coworker", "new", "linked", "--coworkers", filepath.Dir(target), "--name", "Linked"); code != 0 {
		t.Fatal(e)
	}
	linked := linkFollowed(t, target, filepath.Join(dir, "linked"))
	os.MkdirAll(filepath.Join(dir, ".trash", "old-20200101T000000.000000000Z", "coworker"), 0o755)

	out, errOut, code := ow(t, "", "coworker", "list", "--coworkers", dir, "--json")
	if code != 0 {
		t.Fatalf("list --json = exit %d\n%s", code, errOut)
	}
	var list []struct {
		ID        string   `json:"id"`
		Name      string   `json:"name"`
		Tools     []string `json:"tools"`
		ToolCount int      `json:"tool_count"`
		Link      string   `json:"link"`
		Problems  []struct {
			File  string `json:"file"`
			Line  int    `json:"line"`
			Col   int    `json:"col"`
			Msg   string `json:"msg"`
			Fix   string `json:"fix"`
			Field string `json:"field"`
		} `json:"problems"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wantIDs, gotIDs := []string{"broken", "good"}, []string{}
	if linked {
		wantIDs = append(wantIDs, "linked")
	}
	for _, c := range list {
		gotIDs = append(gotIDs, c.ID)
	}
	if !slices.Equal(gotIDs, wantIDs) {
		t.Fatalf("list = %+v; want %v", list, wantIDs)
	}
	p := list[0].Problems
	if len(p) != 1 || p[0].File != filepath.Join(broken, "manifest.md") || p[0].Line != 5 || p[0].Col != 13 || p[0].Field != "policy" ||
		p[0].Msg != `policy for "device.x" is "maybe"` || p[0].Fix != "use ask, allow or deny" {
		t.Errorf("broken's problems = %+v", p)
	}
	if g := list[1]; g.Name != "Good one" || g.ToolCount != 1 || g.Tools[0] != "device.system_info_get" || len(g.Problems) != 0 || g.Link != "" {
		t.Errorf("good = %+v", g)
	}
	if linked {
		if l := list[2]; l.Link != target || len(l.Problems) != 0 {
			t.Errorf("linked = %+v; want its target %s", l, target)
		}
	}

	out, _, code = ow(t, "", "coworker", "list", "--coworkers", dir)
	want := "broken  broken (Broken): 1 tool\n" +
		"          " + filepath.Join(broken, "manifest.md") + `:5:13: policy for "device.x" is "maybe"; use ask, allow or deny` + "\n" +
		"ok      good (Good one): 1 tool\n          Works.\n"
	if linked {
		want += "ok      linked (Linked): 0 tools\n          linked to " + target + "\n"
	}
	if code != 0 || out != want {
		t.Errorf("list = exit %d\n%s\nwant\n%s", code, out, want)
	}
}

// linkFollowed links link to the folder target and reports whether the
// link works: false when this system cannot make it (Windows without the
// right to make links) or makes one it does not follow (Wine 8: the link
// os.Symlink makes there is neither followed nor seen by Lstat;
// docs/install.md#tested-under-wine). A test then checks the rest without
// the link.
func linkFollowed(t *testing.T, target, link string) bool {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Logf("no link: %v; checked without it", err)
		return false
	}
	a, errA := os.Stat(target)
	b, errB := os.Stat(link)
	if errA != nil || errB != nil || !os.SameFile(a, b) {
		t.Logf("the link %s is not followed (%v); checked without it", link, errB)
		os.Remove(link)
		return false
	}
	return true
}
