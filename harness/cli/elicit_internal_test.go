package cli

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/openworker/desktop/harness/elicit"
)

func question(t *testing.T, schema string) elicit.Question {
	t.Helper()
	f, err := elicit.Parse(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	q := elicit.NewQuestion("eli_1", "Please \x1b[31mfill\x1b[0m this in.", f)
	q.Namespace, q.ServerName, q.Tool, q.Invocation = "forms", "Forms Server", "forms.ask", "inv_1"
	return q
}

const cliForm = `{"type":"object","required":["name"],"properties":{
	"name":{"type":"string","title":"Name","minLength":2},
	"age":{"type":"integer","minimum":0,"maximum":150,"default":30},
	"ok":{"type":"boolean"},
	"pet":{"type":"string","oneOf":[{"const":"c","title":"Cat"},{"const":"d","title":"Dog"}]},
	"tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]}},
	"note":{"type":"string"}
}}`

// The terminal asks each field: a required field left empty and a value
// of the wrong kind are asked again, Enter keeps the default or leaves an
// optional field out, choices are by number; the server's escape codes
// are not printed.
func TestTerminalElicitAnswersAForm(t *testing.T) {
	q := question(t, cliForm)
	// Fields in order: name, age, ok, pet, tags, note.
	in := strings.Join([]string{"x", "a", "", "Ada", "old", "", "maybe", "y", "3", "2", "1,3", ""}, "\n") + "\n"
	var out strings.Builder
	p := &terminalPrompter{in: strings.NewReader(in), out: &out, interactive: true, lock: &sync.Mutex{}}
	ans, err := p.Elicit(context.Background(), q)
	if err != nil || ans.Action != elicit.Accept {
		t.Fatalf("Elicit = %+v, %v\n%s", ans, err, out.String())
	}
	if ans.Content["name"] != "Ada" || ans.Content["age"] != float64(30) || ans.Content["ok"] != true || ans.Content["pet"] != "d" ||
		!slices.Equal(ans.Content["tags"].([]string), []string{"a", "c"}) {
		t.Errorf("content = %#v", ans.Content)
	}
	if _, ok := ans.Content["note"]; ok {
		t.Errorf("the optional note left empty was sent: %#v", ans.Content)
	}
	if err := q.Check(ans.Content); err != nil {
		t.Errorf("the terminal's answer does not pass the form: %v", err)
	}
	s := out.String()
	for _, want := range []string{"forms (Forms Server) asks a question during forms.ask (inv_1):", "please answer a, d or c", "this field is required",
		`"old" is not a whole number`, "please answer y or n", `"3" is not one of the numbers 1 to 2`, "2) Dog", "[30]: ", "(required, at least 2 characters)"} {
		if !strings.Contains(s, want) {
			t.Errorf("the terminal shows:\n%s\nwant %q", s, want)
		}
	}
	if strings.Contains(s, "\x1b") {
		t.Error("the server's escape codes reached the terminal")
	}
}

func TestTerminalElicitDeclineCancelAndProblem(t *testing.T) {
	for in, want := range map[string]elicit.Action{"d\n": elicit.Decline, "c\n": elicit.Cancel} {
		var out strings.Builder
		p := &terminalPrompter{in: strings.NewReader(in), out: &out, interactive: true, lock: &sync.Mutex{}}
		if ans, err := p.Elicit(context.Background(), question(t, cliForm)); err != nil || ans.Action != want || ans.Content != nil {
			t.Errorf("Elicit(%q) = %+v, %v; want %s", in, ans, err, want)
		}
	}
	q := question(t, cliForm)
	q.Problem, q.Previous = "name: minLength: got 1, want 2", map[string]any{"name": "A", "age": 40}
	var out strings.Builder
	p := &terminalPrompter{in: strings.NewReader("a\nAda\n\n\n\n\n\n"), out: &out, interactive: true, lock: &sync.Mutex{}}
	ans, err := p.Elicit(context.Background(), q)
	if err != nil || ans.Content["age"] != float64(40) {
		t.Errorf("asked again = %+v, %v; want the previous age kept", ans, err)
	}
	if !strings.Contains(out.String(), "the answer was not accepted: name: minLength") || !strings.Contains(out.String(), "[A]: ") {
		t.Errorf("asked again, the terminal shows:\n%s", out.String())
	}
}

func TestTerminalElicitWithoutTerminalDeclines(t *testing.T) {
	var out strings.Builder
	p := &terminalPrompter{in: strings.NewReader("a\n"), out: &out, interactive: false, lock: &sync.Mutex{}}
	_, err := p.Elicit(context.Background(), question(t, cliForm))
	if !errors.Is(err, elicit.ErrNoPerson) {
		t.Errorf("Elicit without a terminal = %v; want ErrNoPerson", err)
	}
	if !strings.Contains(out.String(), "forms (Forms Server) asked a question during forms.ask; declined: there is no terminal to ask on") {
		t.Errorf("stderr = %q", out.String())
	}
}
