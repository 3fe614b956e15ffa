// Package protocol is the JSON-lines harness protocol of 'openworker serve --stdio' (SPEC §10).
package protocol
