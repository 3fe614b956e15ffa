package notification

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/platform"
)

// ShowInput is the input of notification.show.
type ShowInput struct {
	Title string `json:"title" jsonschema:"Short title of the notification, plain text."`
	Body  string `json:"body,omitempty" jsonschema:"Body text of the notification, plain text."`
}

// ShowOutput is the result of notification.show.
type ShowOutput struct {
	Shown bool `json:"shown"`
}

// newShow builds notification.show.
//
// Risk is non_idempotent_write: each call puts another notification on the
// user's screen (repeating it shows it again), and an interrupted call may or
// may not have shown it, which the journal (docs/journal.md) records as "unknown", not "failed".
func newShow(a platform.Adapter) (*Pinned, error) {
	d := tool.Descriptor{
		Name:        ShowName,
		Description: "Show a native desktop notification to the local user. Returns {\"shown\": true}.",
		Version:     Version,
		Risk:        tool.NonIdempotentWrite,
	}
	t, err := tool.NewTyped(d, func(ctx context.Context, _ *tool.Call, in ShowInput) (ShowOutput, error) {
		if err := a.Notify(ctx, platform.NotifyRequest{Title: in.Title, Body: in.Body}); err != nil {
			if ctx.Err() != nil {
				return ShowOutput{}, ctx.Err()
			}
			return ShowOutput{}, toolError(ShowName, err)
		}
		return ShowOutput{Shown: true}, nil
	}, tool.WithInputSchema(func(s *jsonschema.Schema) error {
		s.Properties["title"].MinLength = jsonschema.Ptr(1)
		s.Properties["title"].MaxLength = jsonschema.Ptr(MaxTitle)
		s.Properties["body"].MaxLength = jsonschema.Ptr(MaxBody)
		return nil
	}))
	if err != nil {
		return nil, err
	}
	return &Pinned{Tool: t, Pinned: t, adapter: a}, nil
}
