// Package harness is the OpenWorker runtime: it opens a frozen tool registry,
// loads coworker bundles, and runs sessions whose turns follow docs/turns.md:
//
//	prepare (bundle, resolution, MCP catalogs, identity pin)
//	→ provider attempt (instructions, skills, model_context facts, history,
//	  selected tools under their aliases)
//	→ for each tool call: selection, validation, consent, durable journal
//	  row, exactly one provider call under limits, terminal row
//	→ next attempt, until the model answers without a tool call or the
//	  budget (16 attempts, 64 calls) is spent.
//
// Embed it with Open:
//
//	rt, err := harness.Open(ctx, reg, harness.Options{Coworkers: dir, DBPath: db}) // once per process
//	s, err := rt.NewSession(ctx, "device-assistant", harness.SessionOptions{Model: provider})
//	res, err := s.TrySend(ctx, "How is my battery?", func(e harness.Event) { ... })
//
// The runtime lives as long as the process (journal, MCP processes, open
// sessions, registry generations: docs/cli.md#embedding); each session
// keeps the SessionOptions and the registry generation it was opened with.
//
// The harness knows no window: consent goes through a consent.Prompter and
// events through a Sink.
package harness
