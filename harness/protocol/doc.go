// Package protocol is the JSON-lines harness protocol of
// `openworker serve --stdio` (docs/stdio-protocol.md), for a UI that keeps the harness in
// a separate process.
//
// Each line is one JSON object. The client sends requests
//
//	{"id":1,"method":"session.open","params":{"coworker":"device-assistant"}}
//	{"id":2,"method":"turn.send","params":{"session_id":"ses_…","text":"How is my battery?"}}
//	{"id":3,"method":"approval.respond","params":{"approval_id":"inb_…","decision":"allow_once"}}
//	{"id":4,"method":"turn.cancel","params":{"session_id":"ses_…"}}
//	{"id":5,"method":"session.close","params":{"session_id":"ses_…"}}
//
// and the server answers each with exactly one response
//
//	{"id":1,"result":{…}}   or   {"id":1,"error":{"code":"bad_request","message":"…"}}
//
// while events stream in between, one per line:
//
//	{"event":{"type":"assistant.delta","session_id":"ses_…","turn_id":"turn_…","text":"Your "}}
//	{"event":{"type":"approval.required","approval_id":"inb_…","request":{…}}}
//
// turn.send answers when the turn ends (its result is the turn result), so
// a client keeps reading events and may send approval.respond and
// turn.cancel meanwhile. See docs/stdio-protocol.md for the full schema.
package protocol
