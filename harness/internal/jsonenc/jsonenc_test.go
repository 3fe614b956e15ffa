package jsonenc

import (
	"encoding/json"
	"testing"
)

func TestMarshalKeepsHTML(t *testing.T) {
	v := struct {
		S string          `json:"s"`
		R json.RawMessage `json:"r"`
	}{"<b>&amp;</b>\n", json.RawMessage(`{"x": "<i>"}`)}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"s":"<b>&amp;</b>\n","r":{"x":"<i>"}}`; string(got) != want {
		t.Errorf("Marshal = %s, want %s", got, want)
	}
	if got := String("a<b>\u2028"); string(got) != `"a<b>\u2028"` {
		t.Errorf("String = %s", got)
	}
	std, _ := json.Marshal(v)
	var a, b any
	json.Unmarshal(got, &a)
	json.Unmarshal(std, &b)
	if ja, _ := Marshal(a); string(ja) != string(mustMarshal(b)) {
		t.Errorf("Marshal and json.Marshal decode to different values: %s vs %s", got, std)
	}
}

func mustMarshal(v any) []byte { b, _ := Marshal(v); return b }
