//go:build fixturegen && since13

package main

// handle records the durable handle of the executing call inv, an A2A
// task ID as the provider gave it (schema 13: invocations.handle).
func handle(g *gen, inv string) {
	must(g.j.SetHandle(g.ctx, inv, "task-fx-42"))
}
