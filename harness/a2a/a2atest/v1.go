package a2atest

import (
	"context"
	"iter"
	"net/http"

	v1 "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	v1srv "github.com/a2aproject/a2a-go/v2/a2asrv"
)

// serveV1 serves the agent as an A2A 1.0 agent with a2a-go v2's server:
// its card (the 0.3 card converted by the SDK, its one interface
// JSON-RPC 1.0 at /a2a, its skills copied) and the JSON-RPC endpoint.
func (a *Agent) serveV1(mux *http.ServeMux) {
	rpc := v1srv.NewJSONRPCHandler(v1srv.NewHandler(submitFirst{a2av0.NewAgentExecutor(a.exec)}))
	mux.Handle("/a2a", a.count(rpc))
	mux.Handle(v1srv.WellKnownAgentCardPath, a.count(v1srv.NewAgentCardHandler(v1srv.AgentCardProducerFn(func(context.Context) (*v1.AgentCard, error) {
		a.mu.Lock()
		c := a.card
		a.mu.Unlock()
		card := a2av0.ToV1AgentCard(&c)
		card.SupportedInterfaces = []*v1.AgentInterface{{URL: c.URL, ProtocolBinding: v1.TransportProtocolJSONRPC, ProtocolVersion: v1.Version}}
		for _, sk := range c.Skills { // ToV1AgentCard (v2.4.0) leaves the skills out
			card.Skills = append(card.Skills, v1.AgentSkill{ID: sk.ID, Name: sk.Name, Description: sk.Description, Tags: sk.Tags,
				Examples: sk.Examples, InputModes: sk.InputModes, OutputModes: sk.OutputModes})
		}
		return card, nil
	}))))
}

// submitFirst makes the 0.3 executor a 1.0 one: v2's server wants a new
// task's first event to be the Task (0.3's server made it itself), so it
// yields the submitted task before the executor's events.
type submitFirst struct{ v1srv.AgentExecutor }

func (e submitFirst) Execute(ctx context.Context, ec *v1srv.ExecutorContext) iter.Seq2[v1.Event, error] {
	return func(yield func(v1.Event, error) bool) {
		if ec.StoredTask == nil && !yield(v1.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		for ev, err := range e.AgentExecutor.Execute(ctx, ec) {
			if !yield(ev, err) {
				return
			}
		}
	}
}
