// Command update-feed makes OpenWorker update feeds and keys
// (docs/update.md#feed): for releases and for the tests, which serve what
// it writes on 127.0.0.1.
//
//	update-feed keygen -dir DIR
//	    writes DIR/update.key (the private key, unencrypted: keep it safe)
//	    and DIR/update.pub
//	update-feed sign -key FILE -version V [-notes TEXT] -out feed.json \
//	    PLATFORM=FILE=URL...
//	    writes feed.json and feed.json.minisig; each PLATFORM (e.g.
//	    windows-amd64, darwin-universal, linux-amd64) gets FILE's size and
//	    SHA-256 and the URL it will be downloaded from
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/openworker/desktop/internal/update/feedgen"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "update-feed:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: update-feed keygen -dir DIR | update-feed sign -key FILE -version V [-notes TEXT] -out FILE PLATFORM=FILE=URL...")
	}
	switch args[0] {
	case "keygen":
		fs := flag.NewFlagSet("keygen", flag.ContinueOnError)
		dir := fs.String("dir", ".", "folder for update.key and update.pub")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		pub, err := feedgen.Keygen(*dir)
		if err != nil {
			return err
		}
		fmt.Println(pub)
		return nil
	case "sign":
		fs := flag.NewFlagSet("sign", flag.ContinueOnError)
		key := fs.String("key", "", "the private key file (update.key)")
		version := fs.String("version", "", "the released version, e.g. 1.4.0")
		notes := fs.String("notes", "", "what changed")
		out := fs.String("out", "feed.json", "the feed to write (and OUT.minisig)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		assets, err := feedgen.ParseAssets(fs.Args())
		if err != nil {
			return err
		}
		return feedgen.Sign(*key, *out, feedgen.Release{Version: *version, Notes: *notes, Assets: assets})
	}
	return fmt.Errorf("unknown command %q: keygen or sign", args[0])
}
