//go:build !darwin && !windows

package autostart

func enable(e Entry) error {
	p, err := desktopPath(e)
	if err != nil {
		return err
	}
	return writeFile(p, desktopFile(e))
}

func disable(e Entry) error {
	p, err := desktopPath(e)
	if err != nil {
		return err
	}
	return removeFile(p)
}

func enabled(e Entry) (bool, error) {
	p, err := desktopPath(e)
	if err != nil {
		return false, err
	}
	return fileExists(p)
}

func where(e Entry) (string, error) { return desktopPath(e) }
