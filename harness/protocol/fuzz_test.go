package protocol_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/protocol"
	"github.com/openworker/desktop/harness/tool"
)

// FuzzServe feeds the input as the request lines of `serve --stdio`:
// the server never panics, ends at the input's end, and every line it
// writes is one JSON object (scripts/fuzz.sh).
func FuzzServe(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"method":"session.open","params":{"coworker":"nope"}}`,
		`{"id":2,"method":"turn.send","params":{"session_id":"ses_x","text":"hi"}}`,
		`{"id":3,"method":"approval.respond","params":{"approval_id":"inb_x","decision":"deny"}}`,
		`{"id":4,"method":"elicitation.respond","params":{"elicitation_id":"x","action":"accept","content":{"a":1}}}`,
		`{"id":5,"method":"inbox.list","params":{}}` + "\n" + `{"id":6,"method":"inbox.answer","params":{"item_id":"x","answer":"allow_once"}}`,
		`{"id":7,"method":"prompts.list","params":{"session_id":"s"}}`,
		`{"id":8,"method":"session.close","params":{"session_id":"s"}}`,
		"not json\n{\"id\":null}\n[]",
	} {
		f.Add([]byte(s))
	}
	rt, err := harness.Open(context.Background(), tool.NewRegistry(), harness.Options{Coworkers: f.TempDir()})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { rt.Close() })
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if err := protocol.NewServer(&out).Serve(ctx, rt, harness.SessionOptions{}, bytes.NewReader(data)); err != nil {
			t.Fatalf("Serve = %v at the end of the input", err)
		}
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var v map[string]any
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				t.Fatalf("output line %q: %v", sc.Text(), err)
			}
		}
	})
}
