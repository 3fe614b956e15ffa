package notification

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/platform"
)

// ConfirmInput is the input of notification.confirm.
type ConfirmInput struct {
	Question       string   `json:"question" jsonschema:"The question to ask the local user, plain text."`
	Buttons        []string `json:"buttons,omitempty" jsonschema:"1 to 3 distinct button labels; the last one is the default. Default [\"Yes\", \"No\"]."`
	TimeoutSeconds int      `json:"timeout_seconds,omitempty" jsonschema:"Seconds to wait for an answer before returning no_answer (1 to 60, default 60)."`
}

// ConfirmOutput is the result of notification.confirm: the pressed button's
// label, or "no_answer" when the timeout passed.
type ConfirmOutput struct {
	Button string `json:"button"`
}

// progressEvery is how often confirm reports that it is still waiting. With
// MaxTimeout 60 s that is at most 6 of the 64 progress events of docs/limits.md.
var progressEvery = 10 * time.Second

// timeoutGrace bounds the wait beyond the dialog's own timeout, in case an
// OS dialog does not give up by itself (MessageBoxW without a timeout).
const timeoutGrace = 5 * time.Second

// newConfirm builds notification.confirm.
//
// Risk is read_only: the tool observes the user's decision and changes no
// state; its dialog is closed before it returns, also when the call is
// cancelled. So an interrupted call is "failed" and asking again is safe.
func newConfirm(a platform.Adapter) (*Pinned, error) {
	d := tool.Descriptor{
		Name: ConfirmName,
		Description: "Ask the local user a question in a native dialog and wait for the answer. " +
			"Returns {\"button\": label} for the pressed button, or {\"button\": \"no_answer\"} when nobody answers before timeout_seconds.",
		Version: Version,
		Risk:    tool.ReadOnly,
	}
	t, err := tool.NewTyped(d, func(ctx context.Context, c *tool.Call, in ConfirmInput) (ConfirmOutput, error) {
		return confirm(ctx, a, c, in)
	}, tool.WithInputSchema(func(s *jsonschema.Schema) error {
		q, b, ts := s.Properties["question"], s.Properties["buttons"], s.Properties["timeout_seconds"]
		q.MinLength, q.MaxLength = jsonschema.Ptr(1), jsonschema.Ptr(MaxBody)
		b.Types, b.Type = nil, "array" // no null
		b.MinItems, b.MaxItems, b.UniqueItems = jsonschema.Ptr(1), jsonschema.Ptr(platform.MaxButtons), true
		b.Items.MinLength, b.Items.MaxLength = jsonschema.Ptr(1), jsonschema.Ptr(MaxLabel)
		b.Items.Pattern = `^[^\p{Cc}]+$` // one line, no control characters
		b.Items.Not = &jsonschema.Schema{Const: jsonschema.Ptr[any](NoAnswer)}
		b.Default = json.RawMessage(`["Yes","No"]`)
		ts.Minimum, ts.Maximum = jsonschema.Ptr(1.0), jsonschema.Ptr(float64(MaxTimeout))
		ts.Default = json.RawMessage(fmt.Sprint(DefTimeout))
		return nil
	}))
	if err != nil {
		return nil, err
	}
	return &Pinned{Tool: t, Pinned: t, adapter: a}, nil
}

func confirm(ctx context.Context, a platform.Adapter, c *tool.Call, in ConfirmInput) (ConfirmOutput, error) {
	timeout := time.Duration(in.TimeoutSeconds) * time.Second
	req := platform.AskRequest{
		Title:   "OpenWorker asks",
		Message: in.Question,
		Buttons: in.Buttons,
		Default: in.Buttons[len(in.Buttons)-1],
		Timeout: timeout,
		Icon:    platform.IconInfo,
	}
	askCtx, cancel := context.WithTimeout(ctx, timeout+timeoutGrace)
	defer cancel()
	type answer struct {
		res platform.AskResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := a.Ask(askCtx, req)
		done <- answer{res, err}
	}()
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	start := time.Now()
	for {
		select {
		case ans := <-done:
			switch {
			case ctx.Err() != nil:
				return ConfirmOutput{}, ctx.Err()
			case errors.Is(ans.err, context.DeadlineExceeded) || ans.err == nil && ans.res.TimedOut:
				return ConfirmOutput{Button: NoAnswer}, nil
			case ans.err != nil:
				return ConfirmOutput{}, toolError(ConfirmName, ans.err)
			case !slices.Contains(in.Buttons, ans.res.Button):
				return ConfirmOutput{}, fmt.Errorf("%s: the adapter answered %q, which is not one of the buttons", ConfirmName, ans.res.Button)
			}
			return ConfirmOutput{Button: ans.res.Button}, nil
		case <-tick.C:
			waited := int(time.Since(start).Round(time.Second) / time.Second)
			data, _ := json.Marshal(map[string]int{"waited_seconds": waited, "timeout_seconds": in.TimeoutSeconds})
			if err := c.Progress("waiting for an answer", data); err != nil {
				cancel() // closes the dialog
				<-done
				return ConfirmOutput{}, err
			}
		}
	}
}
