package app

import (
	"fmt"

	"github.com/openworker/desktop/harness/consent"
)

// A sampling prompt (consent.Request.Sampling, docs/consent.md#sampling)
// is shown by the consent dialog's sampling variant and is answered
// allow_once or deny only.

func errSamplingOnce(d consent.Decision) error {
	return fmt.Errorf("%q is not an answer to a sampling request; use allow_once or deny (each request is asked for)", d)
}

// samplingNotice is the notification of a sampling prompt: who asks, never
// the messages (a notification may show on a lock screen).
func samplingNotice(req consent.Request) string {
	return fmt.Sprintf("%s asks your model for a completion during %s.", req.Sampling.Namespace, req.Tool)
}
