package autostart

// The launch agent is loaded by launchd at the next login; it is not
// loaded now (launchctl bootstrap would start a second copy at once).

func enable(e Entry) error {
	p, err := launchAgentPath(e)
	if err != nil {
		return err
	}
	return writeFile(p, launchAgent(e))
}

func disable(e Entry) error {
	p, err := launchAgentPath(e)
	if err != nil {
		return err
	}
	return removeFile(p)
}

func enabled(e Entry) (bool, error) {
	p, err := launchAgentPath(e)
	if err != nil {
		return false, err
	}
	return fileExists(p)
}

func where(e Entry) (string, error) { return launchAgentPath(e) }
