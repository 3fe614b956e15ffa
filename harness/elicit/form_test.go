package elicit

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const allKinds = `{"type":"object","required":["name","age"],"properties":{
	"name":{"type":"string","title":"Name","minLength":2,"maxLength":20},
	"email":{"type":"string","format":"email"},
	"site":{"type":"string","format":"uri"},
	"born":{"type":"string","format":"date"},
	"at":{"type":"string","format":"date-time"},
	"age":{"type":"integer","minimum":0,"maximum":150,"default":30},
	"ratio":{"type":"number","minimum":0,"maximum":1},
	"ok":{"type":"boolean","default":true},
	"pet":{"type":"string","enum":["c","d"],"enumNames":["Cat","Dog"]},
	"hero":{"type":"string","oneOf":[{"const":"h1","title":"Superman"},{"const":"h2","title":"Batman"}]},
	"tags":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["a","b","c"]}},
	"fish":{"type":"array","items":{"anyOf":[{"const":"f1","title":"Tuna"}]}}
}}`

func TestParseEveryKind(t *testing.T) {
	f, err := Parse(json.RawMessage(allKinds))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Field{}
	for _, fd := range f.Fields {
		got[fd.Name] = fd
	}
	if f.Fields[0].Name != "name" || f.Fields[1].Name != "age" || !f.Fields[0].Required || !f.Fields[1].Required || got["email"].Required {
		t.Errorf("required fields first: %v", f.Names())
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"name", got["name"].Kind == KindString && *got["name"].MinLength == 2 && *got["name"].MaxLength == 20 && got["name"].Label() == "Name"},
		{"email", got["email"].Format == "email" && got["site"].Format == "uri" && got["born"].Format == "date" && got["at"].Format == "date-time"},
		{"age", got["age"].Kind == KindInteger && *got["age"].Maximum == 150 && string(got["age"].Default) == "30"},
		{"ratio", got["ratio"].Kind == KindNumber},
		{"ok", got["ok"].Kind == KindBoolean && string(got["ok"].Default) == "true"},
		{"pet", got["pet"].Kind == KindEnum && got["pet"].Options[1] == Option{"d", "Dog"}},
		{"hero", got["hero"].Kind == KindEnum && got["hero"].Options[0] == Option{"h1", "Superman"}},
		{"tags", got["tags"].Kind == KindMulti && len(got["tags"].Options) == 3 && *got["tags"].MaxItems == 2},
		{"fish", got["fish"].Kind == KindMulti && got["fish"].Options[0].Title == "Tuna"},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("field %s parsed as %+v", c.name, got[c.name])
		}
	}
}

func TestParseRefusesWhatIsNotAFlatForm(t *testing.T) {
	many := map[string]any{}
	for i := range MaxFields + 1 {
		many[fmt.Sprintf("f%d", i)] = map[string]any{"type": "string"}
	}
	manyJSON, _ := json.Marshal(map[string]any{"type": "object", "properties": many})
	huge := `{"type":"object","properties":{"a":{"type":"string","description":"` + strings.Repeat("x", MaxSchemaBytes) + `"}}}`
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"addr":{"type":"object","properties":{"street":{"type":"string"}}}}}`, `property "addr" has nested properties`},
		{`{"type":"object","properties":{"addr":{"type":"object"}}}`, `property "addr" has type "object"`},
		{`{"type":"object","properties":{"n":{"type":"string","format":"ipv4"}}}`, `format "ipv4"`},
		{`{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"}}}}`, `not a multi-select`},
		{`{"type":"object","properties":{"e":{"type":"string","enum":["a",1]}}}`, `not a string`},
		{`{"type":"object","properties":{"e":{"type":"string","enum":["a","b"],"enumNames":["A"]}}}`, `2 enum values and 1 enumNames`},
		{`{"type":"object","properties":{"n":{"type":"integer","minimum":5,"maximum":1}}}`, `maximum below its minimum`},
		{`{"type":"object","required":["x"],"properties":{}}`, `requires "x"`},
		{`{"type":"array"}`, `type "array"; a form is an object`},
		{`{"$ref":"#/defs/x"}`, `$ref`},
		{string(manyJSON), `21 properties, over the limit of 20 fields`},
		{huge, `over the limit of 65536`},
		{`[1,2]`, `not a JSON object`},
	} {
		_, err := Parse(json.RawMessage(tc.schema))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%.60s) = %v; want an error with %q", tc.schema, err, tc.want)
		}
	}
	if f, err := Parse(nil); err != nil || len(f.Fields) != 0 {
		t.Errorf("Parse(nil) = %+v, %v; want an empty form", f, err)
	}
}

func TestCheckAnswers(t *testing.T) {
	f, err := Parse(json.RawMessage(allKinds))
	if err != nil {
		t.Fatal(err)
	}
	good := map[string]any{"name": "Ada", "age": 36, "email": "ada@example.com", "site": "https://example.com/", "born": "1815-12-10",
		"at": "2026-12-01T10:00:00Z", "ratio": 0.5, "ok": false, "pet": "d", "hero": "h2", "tags": []string{"a", "c"}, "fish": []any{"f1"}}
	if err := f.Check(good); err != nil {
		t.Errorf("Check(good) = %v", err)
	}
	for _, tc := range []struct {
		content map[string]any
		want    []string
	}{
		{map[string]any{"age": 3}, []string{"missing property 'name'"}},
		{map[string]any{"name": "A", "age": 3}, []string{"name: minLength"}},
		{map[string]any{"name": "Ada", "age": 200, "email": "nope"}, []string{"age: maximum", "email:"}},
		{map[string]any{"name": "Ada", "age": 1.5}, []string{"age:"}},
		{map[string]any{"name": "Ada", "age": 1, "born": "10/12/1815"}, []string{"born:"}},
		{map[string]any{"name": "Ada", "age": 1, "pet": "x"}, []string{"pet:"}},
		{map[string]any{"name": "Ada", "age": 1, "tags": []string{"a", "b", "c"}}, []string{"tags: maxItems"}},
		{map[string]any{"name": "Ada", "age": 1, "tags": []string{"z"}}, []string{"tags"}},
		{map[string]any{"name": "Ada", "age": 1, "hero": "h9"}, []string{"hero"}},
		{map[string]any{"name": "Ada", "age": 1, "extra": "x"}, []string{"extra: not a field of this form"}},
		// every problem at once: a field the form lacks does not hide the others
		{map[string]any{"extra": "x", "other": 1, "age": 200, "email": "nope", "born": "x", "pet": "x", "hero": "h9", "tags": []string{"z"}},
			[]string{"extra: not a field of this form", "other: not a field of this form", "missing property 'name'", "age: maximum", "email:", "born:", "pet:", "hero:", "tags"}},
	} {
		err := f.Check(tc.content)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("Check(%v) = %v; want it to say %q", tc.content, err, w)
			}
		}
	}
}

func TestMessageIsClipped(t *testing.T) {
	f, _ := Parse(nil)
	q := NewQuestion("eli_1", strings.Repeat("é", MaxMessage), f)
	if len(q.Message) > MaxMessage+len("…") || !strings.HasSuffix(q.Message, "…") {
		t.Errorf("message of %d bytes", len(q.Message))
	}
}

// A default that does not fit its field is not offered (accepting it
// would only be asked again); an empty enum is refused.
func TestDefaultsThatDoNotFit(t *testing.T) {
	f, err := Parse(json.RawMessage(`{"type":"object","properties":{
		"n":{"type":"integer","default":"abc"},
		"m":{"type":"integer","minimum":1,"default":0},
		"e":{"type":"string","enum":["a","b"],"default":"zzz"},
		"ok":{"type":"string","enum":["a","b"],"default":"b"},
		"k":{"type":"integer","default":7}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range f.Fields {
		want := fd.Name == "ok" || fd.Name == "k"
		if (len(fd.Default) > 0) != want {
			t.Errorf("field %s: default %s offered = %v, want %v", fd.Name, fd.Default, len(fd.Default) > 0, want)
		}
	}
	for _, schema := range []string{
		`{"type":"object","properties":{"a":{"type":"string","enum":[]}}}`,
		`{"type":"object","properties":{"a":{"type":"string","oneOf":[]}}}`,
	} {
		if _, err := Parse(json.RawMessage(schema)); err == nil || !strings.Contains(err.Error(), `property "a" has an empty enum`) {
			t.Errorf("Parse(%s) = %v", schema, err)
		}
	}
}
