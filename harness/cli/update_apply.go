package cli

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/openworker/desktop/harness/settings"
	"github.com/openworker/desktop/internal/update"
	"github.com/spf13/cobra"
)

// updateDir is the app's update folder (docs/update.md#stage): updates/
// in its config folder (OPENWORKER_CONFIG_DIR, else the default).
func (c *config) updateDir() (string, error) {
	p, err := settings.ResolvePaths(c.appDir)
	if err != nil {
		return "", err
	}
	return filepath.Join(p.ConfigDir, "updates"), nil
}

// downloaded is what `update download --json` prints.
type downloaded struct {
	update.Result
	// Staged is the verified file waiting in the update folder; nil when
	// there was nothing newer to download.
	Staged *update.Staged `json:"staged,omitempty"`
	Dir    string         `json:"dir,omitempty"`
}

func (c *config) updateDownloadCommand() *cobra.Command {
	var f updateFlags
	cmd := &cobra.Command{
		Use:   "download",
		Short: "download and verify a newer release into the app's update folder",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			res, err := c.updateCheck(cmd, &f)
			if err != nil {
				return c.updateFailed(f.asJSON, f.feed, err)
			}
			if !res.Newer {
				if f.asJSON {
					return c.printJSON(downloaded{Result: res})
				}
				c.printUpdate(res)
				return nil
			}
			dir, err := c.updateDir()
			if err != nil {
				return c.updateFailed(f.asJSON, f.feed, err)
			}
			client := &http.Client{Timeout: 30 * time.Minute}
			st, err := update.Download(cmd.Context(), client, res, dir, c.downloadProgress())
			if err != nil {
				return c.updateFailed(f.asJSON, f.feed, err)
			}
			if f.asJSON {
				return c.printJSON(downloaded{Result: res, Staged: &st, Dir: dir})
			}
			fmt.Fprintf(c.stdout, "OpenWorker %s is downloaded and verified (%s, %d bytes, SHA-256 %s).\nThe app installs it when it next starts; openworker update apply does it now.\n",
				st.Version, filepath.Join(dir, st.File), st.Size, st.SHA256)
			return nil
		},
	}
	f.add(cmd)
	return cmd
}

// downloadProgress prints each tenth of a download to stderr.
func (c *config) downloadProgress() update.Progress {
	last := int64(-1)
	return func(done, total int64) {
		if total <= 0 {
			return
		}
		if tenth := done * 10 / total; tenth != last {
			last = tenth
			fmt.Fprintf(c.stderr, "downloaded %d%% (%d of %d bytes)\n", tenth*10, done, total)
		}
	}
}

func (c *config) updateApplyCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "apply",
		Short: "install the update `update download` or the app staged (Windows: the installer, silently)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := c.updateDir()
			if err != nil {
				return err
			}
			exe, err := os.Executable()
			if err == nil {
				exe, err = filepath.EvalSymlinks(exe)
			}
			if err != nil {
				return fmt.Errorf("cannot find this program to update: %w", err)
			}
			a, ok, err := update.ApplyStaged(dir, update.Target{Exe: exe, Platform: update.Platform()})
			if !ok && err == nil {
				return errors.New("no update is staged in " + dir + "; run openworker update download first")
			}
			if err != nil {
				return fmt.Errorf("the update to %s was not applied: %w", a.Version, err)
			}
			if a.Installer {
				fmt.Fprintf(c.stdout, "Started the installer of OpenWorker %s silently: it replaces %s once OpenWorker has exited (a running app is closed).\n", a.Version, exe)
				return nil
			}
			fmt.Fprintf(c.stdout, "OpenWorker %s is installed in place of %s; it runs from the next start.\n", a.Version, exe)
			return nil
		},
	}
}
