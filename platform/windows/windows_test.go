package windows

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"git.sr.ht/~jackmordaunt/go-toast/tmpl"
	"github.com/openworker/desktop/platform/internal/core"
	"github.com/openworker/desktop/platform/internal/testkit"
)

func TestMessageBoxParamsGolden(t *testing.T) {
	for _, c := range testkit.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			req := core.AskRequest{Title: c.Text, Message: c.Text, Buttons: []string{"Deny", c.Text}, Default: "Deny", Timeout: 42 * time.Second, Icon: core.IconWarning}
			if len(c.Text) > core.MaxTitleBytes {
				req.Title = "Ten kilobytes"
			}
			if (core.AskRequest{Buttons: []string{c.Text}, Timeout: time.Second}).Validate() != nil {
				req.Buttons[1] = "Allow"
			}
			s, err := MessageBoxParams(req)
			if err != nil {
				t.Fatal(err)
			}
			if s.Caption != req.Title || !strings.HasPrefix(s.Text, c.Text+"\n\nButtons, from left to right:\n1. Deny\n2. ") {
				t.Errorf("text not passed verbatim: caption %q text %q", s.Caption, s.Text)
			}
			if s.Type != MB_YESNO|MB_ICONWARNING|MB_SETFOREGROUND|MB_TOPMOST || s.TimeoutMS != 42000 {
				t.Errorf("Type = %#x, TimeoutMS = %d", s.Type, s.TimeoutMS)
			}
			if got, _ := s.Result(IDNO); got.Button != req.Buttons[1] {
				t.Errorf("Result(IDNO) = %+v, want %q", got, req.Buttons[1])
			}
			testkit.Golden(t, "messagebox_"+c.Name+".golden", testkit.JSON(t, s))
		})
	}
}

func TestMessageBoxMapping(t *testing.T) {
	cases := []struct {
		name string
		req  core.AskRequest
		typ  uint32
		ids  map[int]string
	}{
		{"stock ok", core.AskRequest{Buttons: []string{"OK"}}, MB_OK, map[int]string{IDOK: "OK"}},
		{"stock yes no reordered, default No", core.AskRequest{Buttons: []string{"No", "Yes"}}, MB_YESNO | MB_DEFBUTTON2, map[int]string{IDYES: "Yes", IDNO: "No"}},
		{"stock yes no cancel", core.AskRequest{Buttons: []string{"Yes", "No", "Cancel"}, Cancel: "Cancel"}, MB_YESNOCANCEL, map[int]string{IDYES: "Yes", IDNO: "No", IDCANCEL: "Cancel"}},
		{"custom one", core.AskRequest{Buttons: []string{"Got it"}}, MB_OK, map[int]string{IDOK: "Got it"}},
		{"custom two with cancel first", core.AskRequest{Buttons: []string{"Stop", "Go"}, Cancel: "Stop", Default: "Go"}, MB_OKCANCEL, map[int]string{IDOK: "Go", IDCANCEL: "Stop"}},
		{"custom three", core.AskRequest{Buttons: []string{"A", "B", "C"}, Default: "C"}, MB_ABORTRETRYIGNORE | MB_DEFBUTTON3, map[int]string{IDABORT: "A", IDRETRY: "B", IDIGNORE: "C"}},
		{"custom three with cancel", core.AskRequest{Buttons: []string{"A", "Later", "C"}, Cancel: "Later", Default: "C"}, MB_YESNOCANCEL | MB_DEFBUTTON2, map[int]string{IDYES: "A", IDNO: "C", IDCANCEL: "Later"}},
		{"stock labels but odd cancel", core.AskRequest{Buttons: []string{"Yes", "No"}, Cancel: "No"}, MB_OKCANCEL, map[int]string{IDOK: "Yes", IDCANCEL: "No"}},
	}
	for _, c := range cases {
		c.req.Timeout = time.Second
		s, err := MessageBoxParams(c.req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := s.Type &^ (MB_ICONINFORMATION | MB_SETFOREGROUND | MB_TOPMOST); got != c.typ {
			t.Errorf("%s: type = %#x, want %#x", c.name, got, c.typ)
		}
		if len(s.Buttons) != len(c.ids) {
			t.Errorf("%s: buttons = %v, want %v", c.name, s.Buttons, c.ids)
		}
		for id, l := range c.ids {
			if got, err := s.Result(id); err != nil || got.Button != l {
				t.Errorf("%s: Result(%d) = %+v, %v, want %q", c.name, id, got, err, l)
			}
		}
	}
	s, _ := MessageBoxParams(core.AskRequest{Buttons: []string{"OK"}, Timeout: time.Second})
	if r, err := s.Result(MessageBoxTimedOut); err != nil || !r.TimedOut {
		t.Errorf("Result(timeout) = %+v, %v", r, err)
	}
	if _, err := s.Result(IDYES); err == nil {
		t.Error("Result accepted a button the box does not have")
	}
	if _, err := MessageBoxParams(core.AskRequest{Message: testkit.NUL, Buttons: []string{"OK"}, Timeout: time.Second}); !errors.Is(err, core.ErrInvalid) {
		t.Errorf("NUL message: %v", err)
	}
}

// toastTexts parses a toast document and returns its <text> contents and
// element names, failing on anything but well-formed XML.
func toastTexts(t *testing.T, doc string) (texts, elems []string, src string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(doc))
	var in bool
	var cur strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("toast XML is not well formed: %v\n%s", err, doc)
		}
		switch v := tok.(type) {
		case xml.StartElement:
			elems = append(elems, v.Name.Local)
			in = v.Name.Local == "text"
			cur.Reset()
			for _, a := range v.Attr {
				if v.Name.Local == "image" && a.Name.Local == "src" {
					src = a.Value
				}
			}
		case xml.CharData:
			if in {
				cur.Write(v)
			}
		case xml.EndElement:
			if v.Name.Local == "text" {
				texts = append(texts, cur.String())
				in = false
			}
		}
	}
}

func TestToastXMLGolden(t *testing.T) {
	for _, c := range testkit.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			title := c.Text
			if len(title) > core.MaxTitleBytes {
				title = "Ten kilobytes"
			}
			icon := `C:\icons\"a&b<c>.png`
			doc, err := ToastXML(core.NotifyRequest{Title: title, Body: c.Text, Icon: icon})
			if err != nil {
				t.Fatal(err)
			}
			texts, elems, src := toastTexts(t, doc)
			want := strings.ReplaceAll(c.Text, "\r\n", "\n") // XML normalizes CRLF; escaping keeps \r as &#xD;
			if len(texts) != 2 || texts[1] != c.Text && texts[1] != want {
				t.Errorf("body did not round-trip: %q", texts)
			}
			if strings.Join(elems, ",") != "toast,visual,binding,image,text,text,audio" {
				t.Errorf("toast structure changed by the input: %v", elems)
			}
			if src != icon {
				t.Errorf("icon src = %q, want %q", src, icon)
			}
			testkit.Golden(t, "toast_"+c.Name+".golden", []byte(doc+"\n"))
		})
	}
	if _, err := ToastXML(core.NotifyRequest{Title: "a", Body: testkit.NUL}); !errors.Is(err, core.ErrInvalid) {
		t.Errorf("NUL body: %v", err)
	}
}

// TestGoToastTemplateIsUnsafe records why the adapter does not hand text to
// beeep on Windows: go-toast's XML template lets a body end its CDATA section
// and add elements. If this test fails, upstream fixed it; revisit the
// package doc before switching back.
func TestGoToastTemplateIsUnsafe(t *testing.T) {
	var b bytes.Buffer
	err := tmpl.XMLTemplate.Execute(&b, map[string]any{
		"ActivationType": "protocol", "ActivationArguments": "", "Duration": "short", "Icon": "",
		"Title": "t", "Body": `]]></text><image src="file:///C:/evil.png"/><text><![CDATA[`, "Audio": "silent",
		"Loop": false, "Actions": nil, "Inputs": nil,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, elems, _ := toastTexts(t, b.String()); !strings.Contains(strings.Join(elems, ","), "image") {
		t.Errorf("go-toast's template no longer lets the body inject an element:\n%s", b.String())
	}
	script := tmpl.ScriptTemplate.Root.String()
	if !strings.Contains(script, `@"`) {
		t.Errorf("go-toast's PowerShell template no longer uses a double-quoted here-string:\n%s", script)
	}
}
