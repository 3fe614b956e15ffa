package cli

import (
	"errors"
	"fmt"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/journal"
)

// The harness states a fix in words; the CLI adds the command or flag
// that does it here, when it prints (docs/cli.md).

// healthHint is the command that carries out the fix of h, the degraded
// state of the journal at path.
func healthHint(h journal.Health, path string) string {
	switch h.Problem {
	case journal.ProblemDamaged:
		return fmt.Sprintf("`openworker journal export --db %s --to FILE` saves what is still readable.", path)
	case journal.ProblemChainBroken:
		return fmt.Sprintf("`openworker journal verify --db %s` lists every break.", path)
	case journal.ProblemNotDurable:
		return "Choose another journal file with --db."
	}
	return ""
}

// errorHint is the command or flag that carries out the fix an error the
// CLI prints states in words, or "".
func errorHint(err error) string {
	var ni *extension.NotInstalledError
	var ne *extension.NamespaceError
	var re *harness.ResolveError
	switch {
	case errors.As(err, &re) && re.Fix == harness.WorkspaceFix:
		return workspaceHint
	case errors.As(err, &ne) && ne.Asked == "":
		return "give one with --namespace NAME"
	case errors.As(err, &ni):
		return "`openworker extension list` shows the installed ones"
	case errors.Is(err, journal.ErrDegraded):
		return "`openworker journal verify --db FILE` lists what is wrong with the journal"
	}
	return ""
}

// namespaceFlag words an error about the namespace asked for with
// --namespace as the flag's.
func namespaceFlag(err error) error {
	var ne *extension.NamespaceError
	if errors.As(err, &ne) && ne.Asked != "" {
		return fmt.Errorf("--namespace: %w", ne.Err)
	}
	return err
}

// sandboxHint is the command that gives the extension whose namespace is
// ns the default sandbox, when one of exts has it.
func sandboxHint(exts []extension.Provider, ns string) string {
	for _, e := range exts {
		if e.Namespace == ns {
			return fmt.Sprintf("`openworker extension sandbox %s default`", e.Name)
		}
	}
	return ""
}

// workspaceHint carries out harness.WorkspaceFix.
const workspaceHint = "give one with --workspace DIR"
