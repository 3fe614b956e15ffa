package launch

import (
	"strings"
	"testing"
)

const npxCmd = `C:\Program Files\nodejs\npx.cmd`

// The quoting table of docs/mcp.md#cmd-and-bat-shims: each argument as it
// is written after the script on cmd.exe's command line.
func TestCmdLineQuotingTable(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{`hello`, `hello`},
		{`-y`, `-y`},
		{`@modelcontextprotocol/server-filesystem`, `@modelcontextprotocol/server-filesystem`},
		{`C:\Users\ann\Documents`, `C:\Users\ann\Documents`}, // "\" alone needs no quotes
		{`café`, `café`},
		{``, `""`},
		{`two words`, `"two words"`},
		{`say "hi"`, `"say ""hi"""`},
		{`"`, `""""`},
		{`a\"b`, `"a\\""b"`},      // the backslash before a quote doubled, the quote doubled
		{`a\\"b`, `"a\\\\""b"`},   // two backslashes before a quote: four
		{`C:\dir\`, `"C:\dir\\"`}, // trailing backslash: quoted, doubled before the closing quote
		{`a\b\\`, `"a\b\\\\"`},
		{`a&b`, `"a&b"`},
		{`a&&calc`, `"a&&calc"`},
		{`a|b`, `"a|b"`},
		{`<in`, `"<in"`},
		{`>out`, `">out"`},
		{`x^y`, `"x^y"`},
		{`(x)`, `"(x)"`},
		{`%PATH%`, `"%%cd:~,%PATH%%cd:~,%"`},
		{`50%`, `"50%%cd:~,%"`},
		{`!x!`, `"!x!"`}, // /v:OFF: no delayed expansion
		{`--root=/tmp`, `"--root=/tmp"`},
		{`a,b;c`, `"a,b;c"`},
		{"tab\there", "\"tab\there\""},
		{`" & calc & "`, `""" & calc & """`},
	} {
		line, err := CmdLine(npxCmd, []string{c.arg})
		if err != nil {
			t.Errorf("CmdLine(%q): %v", c.arg, err)
			continue
		}
		want := `cmd.exe /e:ON /v:OFF /d /s /c ""` + npxCmd + `" ` + c.want + `"`
		if line != want {
			t.Errorf("CmdLine(%q)\n got %s\nwant %s", c.arg, line, want)
		}
		checkNoSyntax(t, c.arg, line)
	}
	line, err := CmdLine(npxCmd, []string{"-y", "@scope/server", "two words"})
	if want := `cmd.exe /e:ON /v:OFF /d /s /c ""` + npxCmd + `" -y @scope/server "two words""`; err != nil || line != want {
		t.Errorf("CmdLine(three args) = %s, %v\nwant %s", line, err, want)
	}
	if line, err := CmdLine(npxCmd, nil); err != nil || line != `cmd.exe /e:ON /v:OFF /d /s /c ""`+npxCmd+`""` {
		t.Errorf("CmdLine(no args) = %s, %v", line, err)
	}
}

// What cannot be passed safely is refused, naming the argument.
func TestCmdLineRefuses(t *testing.T) {
	for _, arg := range []string{"line\nbreak", "cr\rhere", "nul\x00"} {
		_, err := CmdLine(npxCmd, []string{"ok", arg})
		if err == nil || !strings.Contains(err.Error(), "argument 2") || !strings.Contains(err.Error(), "cmd.exe cannot pass") {
			t.Errorf("CmdLine(%q) = %v; want a refusal naming argument 2", arg, err)
		}
	}
	for _, script := range []string{`C:\a"b\x.cmd`, `C:\100%\x.cmd`, `C:\dir\`, "C:\\x\n.cmd"} {
		if _, err := CmdLine(script, nil); err == nil || !strings.Contains(err.Error(), "cannot be run through cmd.exe") {
			t.Errorf("CmdLine(script %q) = %v; want a refusal", script, err)
		}
	}
}

// checkNoSyntax reads line as cmd.exe does after /s /c strips the outer
// quotes: every '"' toggles quoting, and outside quotes & | < > ^ ( ) are
// syntax. It fails when a metacharacter of arg is outside quotes or a "%"
// could start a variable (each must be the start of "%%cd:~,%").
func checkNoSyntax(t *testing.T, arg, line string) {
	t.Helper()
	i := strings.Index(line, "/c ")
	body := line[i+len("/c "):]
	if len(body) < 2 || body[0] != '"' || body[len(body)-1] != '"' {
		t.Fatalf("CmdLine(%q) = %s: the command after /c is not in outer quotes", arg, line)
	}
	body = body[1 : len(body)-1]
	quoted := false
	for j := 0; j < len(body); j++ {
		ch := body[j]
		switch {
		case ch == '"':
			quoted = !quoted
		case ch == '%':
			if !strings.HasPrefix(body[j:], "%%cd:~,%") {
				t.Errorf("CmdLine(%q) = %s: a bare %% at %d", arg, line, j)
				return
			}
			j += len("%%cd:~,%") - 1
		case !quoted && strings.IndexByte("&|<>^()", ch) >= 0:
			t.Errorf("CmdLine(%q) = %s: %q outside quotes at %d", arg, line, ch, j)
			return
		}
	}
	if quoted {
		t.Errorf("CmdLine(%q) = %s: a quote is left open", arg, line)
	}
}

// FuzzCmdLine: no argument CmdLine accepts puts a metacharacter outside
// quotes or leaves a bare "%" (the seeds run with every go test).
func FuzzCmdLine(f *testing.F) {
	for _, s := range []string{`a&b`, `"&calc&"`, `\"&\"`, `%x%`, `^"^`, `a\`, `""""`, `|"|`, `\\\"(`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		line, err := CmdLine(npxCmd, []string{arg, arg})
		if err != nil {
			if !strings.ContainsAny(arg, "\r\n\x00") {
				t.Fatalf("CmdLine(%q) refused: %v", arg, err)
			}
			return
		}
		checkNoSyntax(t, arg, line)
	})
}

// QuoteArg is syscall.EscapeArg: CommandLineToArgvW's rules for .exe
// programs.
func TestQuoteArg(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{``, `""`},
		{`plain`, `plain`},
		{`two words`, `"two words"`},
		{`C:\dir\`, `C:\dir\`},
		{`C:\my dir\`, `"C:\my dir\\"`},
		{`say "hi"`, `"say \"hi\""`},
		{`a"b`, `a\"b`},
		{`a\"b`, `a\\\"b`},
		{`a&b`, `a&b`}, // no shell reads an .exe's command line
		{"tab\t", "\"tab\t\""},
	} {
		if got := QuoteArg(c.arg); got != c.want {
			t.Errorf("QuoteArg(%q) = %s; want %s", c.arg, got, c.want)
		}
	}
}

// cmd.exe reads at most 8191 characters; a longer line is refused naming
// the limit. An .exe line is bounded by CreateProcess's 32767.
func TestCommandLineLimits(t *testing.T) {
	line, err := CmdLine(`C:\n\npx.cmd`, []string{strings.Repeat("a", 8191-len(`cmd.exe /e:ON /v:OFF /d /s /c ""C:\n\npx.cmd" `)-1)})
	if err != nil || len(line) != 8191 {
		t.Fatalf("CmdLine at the limit = %d chars, %v", len(line), err)
	}
	_, err = CmdLine(`C:\n\npx.cmd`, []string{strings.Repeat("a", 4000), strings.Repeat("é", 4200)})
	if err == nil || !strings.Contains(err.Error(), "8191") || !strings.Contains(err.Error(), "fewer or shorter") {
		t.Errorf("CmdLine over the limit = %v; want a refusal naming 8191", err)
	}
	if err := CheckExeLine(`C:\n\node.exe`, []string{strings.Repeat("a", 32000)}); err != nil {
		t.Errorf("CheckExeLine under the limit = %v", err)
	}
	err = CheckExeLine(`C:\n\node.exe`, []string{strings.Repeat("a b", 11000)})
	if err == nil || !strings.Contains(err.Error(), "32767") {
		t.Errorf("CheckExeLine over the limit = %v; want a refusal naming 32767", err)
	}
}
