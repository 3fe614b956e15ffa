package harness_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// fakePNG returns PNG-signed random bytes no file could hold by chance.
func fakePNG(t *testing.T) []byte {
	b := make([]byte, 3000)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return append([]byte("\x89PNG\r\n\x1a\n"), b...)
}

// shotEnv is a session with test.shot, a tool returning one image; during
// the call it runs during(s) first.
func shotEnv(t *testing.T, png []byte, during func(e *env, s *harness.Session)) (*env, *harness.Session) {
	var e *env
	var s *harness.Session
	shot := &testTool{name: "test.shot", risk: tool.ReadOnly, fn: func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
		if during != nil {
			during(e, s)
		}
		return tool.Output{Text: "a screenshot", Images: []tool.Image{{MIMEType: "image/png", Data: png}}}, nil
	}}
	e = newEnv(t, envOpts{
		tools: []tool.Tool{shot}, selected: []string{"test.shot"},
		replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "test__shot", `{}`)}}, {Text: "I see it."}},
	})
	s = e.open()
	return e, s
}

func imagesSeen(r modeltest.RecordedRequest) [][]byte {
	var out [][]byte
	for _, m := range r.Messages {
		for _, im := range m.Images {
			out = append(out, im.Data)
		}
		for _, tr := range m.ToolResults {
			for _, im := range tr.Images {
				out = append(out, im.Data)
			}
		}
	}
	return out
}

// Output.Images reach the model; the journal keeps digest and size only.
func TestImagesReachTheModelNotTheJournal(t *testing.T) {
	png := fakePNG(t)
	e, s := shotEnv(t, png, nil)
	res, err := s.Send(context.Background(), "look", e.sink)
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	seen := imagesSeen(e.model.Requests()[1])
	if len(seen) != 1 || !bytes.Equal(seen[0], png) {
		t.Fatalf("the model saw %d images; want the tool's one image byte for byte", len(seen))
	}
	sum := sha256.Sum256(png)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	inv := e.invocations(s.ID())[0]
	if !strings.Contains(string(inv.Result), digest) || !strings.Contains(string(inv.Result), `"bytes":3008`) {
		t.Fatalf("journaled result %s; want the image digest and size", inv.Result)
	}
	var inMessages bool
	for _, m := range e.messages(s.ID()) {
		inMessages = inMessages || strings.Contains(string(m.Content), digest)
	}
	if !inMessages {
		t.Fatal("the journaled tool message does not record the image digest")
	}
	if err := e.rt.Close(); err != nil {
		t.Fatal(err)
	}
	b64 := []byte(base64.StdEncoding.EncodeToString(png)[:64])
	for _, f := range []string{e.db, e.db + "-wal", e.db + "-shm"} {
		raw, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(raw, png[8:72]) || bytes.Contains(raw, b64) {
			t.Fatalf("%s holds the image's pixels", f)
		}
	}
}

// docs/consent.md: consent is rechecked before images are forwarded; when it no
// longer holds they are withheld with a journaled images_withheld warning.
func TestImagesWithheldWhenConsentNoLongerHolds(t *testing.T) {
	t.Run("user policy deny saved during the call", func(t *testing.T) {
		png := fakePNG(t)
		e, s := shotEnv(t, png, func(e *env, s *harness.Session) {
			pin := s.Tools()[0].Pin.Digest
			if err := e.rt.Journal().SaveUserPolicy(context.Background(), "tester", "test.shot", pin, "deny"); err != nil {
				t.Error(err)
			}
		})
		res, err := s.Send(context.Background(), "look", e.sink)
		if err != nil || res.Status != harness.TurnCompleted {
			t.Fatalf("Send = %+v, %v", res, err)
		}
		if seen := imagesSeen(e.model.Requests()[1]); len(seen) != 0 {
			t.Fatalf("the model saw %d images after the user denied the tool", len(seen))
		}
		assertWithheld(t, e, s, "you chose Never for test.shot")
	})
	t.Run("turn cancelled during the call", func(t *testing.T) {
		png := fakePNG(t)
		e, s := shotEnv(t, png, func(_ *env, s *harness.Session) { s.Cancel() })
		res, err := s.Send(context.Background(), "look", e.sink)
		if err != nil || res.Status != harness.TurnCancelled {
			t.Fatalf("Send = %+v, %v; want cancelled", res, err)
		}
		for i, r := range e.model.Requests() {
			if len(imagesSeen(r)) != 0 {
				t.Fatalf("model request %d holds images of a cancelled turn", i)
			}
		}
		assertWithheld(t, e, s, "cancelled")
	})
}

func assertWithheld(t *testing.T, e *env, s *harness.Session, why string) {
	t.Helper()
	for _, w := range e.warnings(s.ID()) {
		if w.Code == "images_withheld" && strings.Contains(w.Message, "1 image(s) from test.shot") && strings.Contains(w.Message, why) {
			return
		}
	}
	t.Fatalf("warnings = %+v; want images_withheld saying %q", e.warnings(s.ID()), why)
}
