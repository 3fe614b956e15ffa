package bundle_test

import (
	"fmt"
	"os"

	"github.com/openworker/desktop/harness/bundle"
)

// A coworker made, edited and deleted, as the app's editor does it.
func Example() {
	coworkers, _ := os.MkdirTemp("", "coworkers")
	defer os.RemoveAll(coworkers)

	id := bundle.NewID("Notes keeper", nil)
	dir, err := bundle.Create(coworkers, bundle.Draft{ID: id, Name: "Notes keeper", Instructions: "You keep notes.", Tools: []string{"files.read"}})
	if err != nil {
		panic(err)
	}
	d, problems, _ := bundle.ReadDraft(dir)
	fmt.Println(d.ID, d.Tools, len(problems))

	d.Policy["files.nope"] = "deny" // names a tool it does not select
	for _, p := range bundle.Validate(dir, d) {
		fmt.Println(p.Field+":", p.Msg)
	}
	delete(d.Policy, "files.nope")
	d.Tools = append(d.Tools, "files.write")
	if err := bundle.Save(dir, d); err != nil {
		panic(err)
	}
	b, _ := bundle.Load(dir)
	fmt.Println(b.Tools.Names)

	t, _ := bundle.Trash(coworkers, id)
	set, _ := bundle.LoadDir(coworkers)
	fmt.Println(len(set.Bundles), "after Trash")
	_ = bundle.Restore(coworkers, t)
	set, _ = bundle.LoadDir(coworkers)
	fmt.Println(len(set.Bundles), "after Restore")
	// Output:
	// notes-keeper [files.read] 0
	// policy: policy names "files.nope", which tools.json does not select
	// [files.read files.write]
	// 0 after Trash
	// 1 after Restore
}
