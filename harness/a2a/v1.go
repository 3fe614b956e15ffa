package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	a2av1 "github.com/a2aproject/a2a-go/v2/a2a"
	v1client "github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
)

// A2A 1.0 (docs/a2a.md#versions). A card that lists "supportedInterfaces"
// is a 1.0 card: the agent is reached through a2a-go v2's JSON-RPC
// transport, and what it answers is converted to the 0.3 types the rest
// of this package follows tasks with, by the SDK's own conversions
// (a2acompat/a2av0). A card with a top-level "url" and "protocolVersion"
// 0.3 is reached with a2a-go's 0.3 client, as before.

// rpcClient is what a call and a poll send: the four methods of an A2A
// JSON-RPC client they use, in 0.3 types.
type rpcClient interface {
	SendMessage(ctx context.Context, p *a2a.MessageSendParams) (a2a.SendMessageResult, error)
	SendStreamingMessage(ctx context.Context, p *a2a.MessageSendParams) iter.Seq2[a2a.Event, error]
	GetTask(ctx context.Context, q *a2a.TaskQueryParams) (*a2a.Task, error)
	CancelTask(ctx context.Context, id *a2a.TaskIDParams) (*a2a.Task, error)
}

var _ rpcClient = (a2aclient.Transport)(nil) // a2a-go's 0.3 client is one

// ProtocolV1 is the protocol version of a 1.0 agent's interface.
const ProtocolV1 = string(a2av1.Version)

// isV1Card reports whether raw is a 1.0 card: it lists
// "supportedInterfaces".
func isV1Card(raw []byte) bool {
	var probe struct {
		Interfaces json.RawMessage `json:"supportedInterfaces"`
	}
	return json.Unmarshal(raw, &probe) == nil && len(probe.Interfaces) > 0 && string(probe.Interfaces) != "null"
}

// parseV1Card reads a 1.0 card: its JSON-RPC interface of protocol 1.x
// (else one of 0.3, reached with the 0.3 client), the card in 0.3 types
// for the skills and capabilities, and the protocol version chosen.
func parseV1Card(raw []byte) (*a2a.AgentCard, string, string, error) {
	var card a2av1.AgentCard
	if err := json.Unmarshal(raw, &card); err != nil {
		return nil, "", "", fmt.Errorf("it is not an agent card: %v", err)
	}
	var v1, v0 *a2av1.AgentInterface
	var bindings []string
	for _, in := range card.SupportedInterfaces {
		if in == nil {
			continue
		}
		bindings = append(bindings, fmt.Sprintf("%s %s", in.ProtocolBinding, in.ProtocolVersion))
		if in.ProtocolBinding != a2av1.TransportProtocolJSONRPC {
			continue
		}
		switch v := string(in.ProtocolVersion); {
		case (v == "" || strings.HasPrefix(v, "1.")) && v1 == nil:
			v1 = in
		case strings.HasPrefix(v, "0.3") && v0 == nil:
			v0 = in
		}
	}
	in, version := v1, ProtocolV1
	if in == nil {
		in, version = v0, string(a2av0.Version)
	}
	if in == nil {
		return nil, "", "", fmt.Errorf("it offers no JSONRPC interface of protocol 1.x or 0.3 (supportedInterfaces: %s); OpenWorker speaks A2A over JSON-RPC only", strings.Join(bindings, ", "))
	}
	if err := checkURL(in.URL); err != nil {
		return nil, "", "", fmt.Errorf("its endpoint: %v", err)
	}
	legacy := a2av0.FromV1AgentCard(&card)
	legacy.URL, legacy.PreferredTransport, legacy.ProtocolVersion = in.URL, a2a.TransportProtocolJSONRPC, version
	return legacy, in.URL, version, nil
}

// newRPC is the JSON-RPC client of an endpoint of the given protocol
// version.
func newRPC(version, endpoint string, hc *http.Client) rpcClient {
	if version == ProtocolV1 {
		return &v1RPC{t: v1client.NewJSONRPCTransport(endpoint, hc)}
	}
	return a2aclient.NewJSONRPCTransport(endpoint, hc)
}

// v1RPC is rpcClient over a2a-go v2's 1.0 JSON-RPC transport.
type v1RPC struct{ t v1client.Transport }

func (r *v1RPC) SendMessage(ctx context.Context, p *a2a.MessageSendParams) (a2a.SendMessageResult, error) {
	req, err := a2av0.ToV1SendMessageRequest(p)
	if err != nil {
		return nil, err
	}
	res, err := r.t.SendMessage(ctx, nil, req)
	if err != nil {
		return nil, v1Err(err)
	}
	ev, err := a2av0.FromV1Event(res.(a2av1.Event))
	if err != nil {
		return nil, err
	}
	out, ok := ev.(a2a.SendMessageResult)
	if !ok {
		return nil, fmt.Errorf("SendMessage answered a %T", ev)
	}
	return out, nil
}

func (r *v1RPC) SendStreamingMessage(ctx context.Context, p *a2a.MessageSendParams) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		req, err := a2av0.ToV1SendMessageRequest(p)
		if err != nil {
			yield(nil, err)
			return
		}
		for ev, err := range r.t.SendStreamingMessage(ctx, nil, req) {
			if err != nil {
				yield(nil, v1Err(err))
				return
			}
			old, err := a2av0.FromV1Event(ev)
			if !yield(old, err) || err != nil {
				return
			}
		}
	}
}

func (r *v1RPC) GetTask(ctx context.Context, q *a2a.TaskQueryParams) (*a2a.Task, error) {
	t, err := r.t.GetTask(ctx, nil, a2av0.ToV1GetTaskRequest(q))
	if err != nil {
		return nil, v1Err(err)
	}
	return a2av0.FromV1Task(t), nil
}

func (r *v1RPC) CancelTask(ctx context.Context, id *a2a.TaskIDParams) (*a2a.Task, error) {
	t, err := r.t.CancelTask(ctx, nil, a2av0.ToV1CancelTaskRequest(id))
	if err != nil {
		return nil, v1Err(err)
	}
	return a2av0.FromV1Task(t), nil
}

// v1Err keeps the errors this package tells apart recognisable: a task
// the agent does not know is a2a.ErrTaskNotFound in both versions.
func v1Err(err error) error {
	if errors.Is(err, a2av1.ErrTaskNotFound) && !errors.Is(err, a2a.ErrTaskNotFound) {
		return fmt.Errorf("%w: %w", a2a.ErrTaskNotFound, err)
	}
	return err
}
