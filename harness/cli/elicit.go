package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/openworker/desktop/harness/elicit"
)

// Elicit implements elicit.Elicitor on the terminal
// (docs/cli.md, docs/mcp.md#elicitation): it names the server and the
// call, shows the server's message, and asks [a]nswer, [d]ecline or
// [c]ancel; to answer, it asks each field in turn: Enter keeps the
// default (shown in brackets) or leaves an optional field out, an enum is
// chosen by number, a multi-select by numbers separated by commas, a
// boolean with y or n; a value of the wrong kind is asked again at once.
// An answer the harness refuses (elicit.Form.Check) comes back with
// q.Problem, which is printed before the form is asked again. Without a
// terminal it says so on stderr and returns elicit.ErrNoPerson (declined).
func (p *terminalPrompter) Elicit(ctx context.Context, q elicit.Question) (elicit.Answer, error) {
	who := q.Namespace
	if q.ServerName != "" && q.ServerName != q.Namespace {
		who = fmt.Sprintf("%s (%s)", q.Namespace, oneLine(q.ServerName, 100))
	}
	if !p.interactive {
		p.lock.Lock()
		fmt.Fprintf(p.out, "%s asked a question during %s; declined: there is no terminal to ask on\n", who, q.Tool)
		p.lock.Unlock()
		return elicit.Answer{}, fmt.Errorf("%w (no terminal)", elicit.ErrNoPerson)
	}
	p.readMu.Lock()
	defer p.readMu.Unlock()
	p.startReading()
	say := func(format string, args ...any) {
		p.lock.Lock()
		fmt.Fprintf(p.out, format, args...)
		p.lock.Unlock()
	}
	if q.Mode == elicit.ModeURL {
		return p.elicitURL(ctx, q, who, say)
	}
	if q.Problem != "" {
		say("\n  the answer was not accepted: %s\n", oneLine(q.Problem, 1000))
	} else {
		say("\n%s asks a question during %s (%s):\n  %s\n", who, q.Tool, q.Invocation, oneLine(q.Message, 2000))
	}
	for {
		say("  [a] answer  [d] decline  [c] cancel: ")
		line, err := p.readLine(ctx)
		if err != nil {
			return elicit.Answer{}, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "a", "answer", "y", "yes":
			content, err := p.askFields(ctx, q, say)
			if err != nil {
				return elicit.Answer{}, err
			}
			return elicit.Answer{Action: elicit.Accept, Content: content}, nil
		case "d", "decline", "n", "no":
			return elicit.Answer{Action: elicit.Decline}, nil
		case "c", "cancel":
			return elicit.Answer{Action: elicit.Cancel}, nil
		}
		say("  please answer a, d or c\n")
	}
}

// readLine waits for the next line, or ctx.
func (p *terminalPrompter) readLine(ctx context.Context) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case line, ok := <-p.lines:
		if !ok {
			return "", errors.New("the terminal closed before an answer; declined")
		}
		return line, nil
	}
}

func (p *terminalPrompter) askFields(ctx context.Context, q elicit.Question, say func(string, ...any)) (map[string]any, error) {
	content := map[string]any{}
	for _, f := range q.Fields {
		def := f.Default
		if prev, ok := q.Previous[f.Name]; ok { // asked again: what was typed is the default
			def, _ = json.Marshal(prev)
		}
		say("  %s%s\n", oneLine(f.Label(), 100), fieldHint(f))
		if f.Description != "" {
			say("    %s\n", oneLine(f.Description, 300))
		}
		for i, o := range f.Options {
			say("    %d) %s\n", i+1, oneLine(o.Title, 100))
		}
		for {
			if len(def) > 0 {
				say("    [%s]: ", oneLine(strings.Trim(string(def), `"`), 200))
			} else {
				say("    : ")
			}
			line, err := p.readLine(ctx)
			if err != nil {
				return nil, err
			}
			line = strings.TrimSpace(line)
			if line == "" {
				if len(def) > 0 {
					var v any
					if json.Unmarshal(def, &v) == nil {
						content[f.Name] = v
					}
					break
				}
				if !f.Required {
					break
				}
				say("    this field is required\n")
				continue
			}
			v, err := fieldValue(f, line)
			if err != nil {
				say("    %v\n", err)
				continue
			}
			content[f.Name] = v
			break
		}
	}
	return content, nil
}

// fieldHint says what a field takes: " (required, an email address)".
func fieldHint(f elicit.Field) string {
	var h []string
	if f.Required {
		h = append(h, "required")
	}
	if hints, ok := kindHints[f.Kind]; ok {
		h = append(h, hints(f)...)
	}
	if len(h) == 0 {
		return ""
	}
	return " (" + strings.Join(h, ", ") + ")"
}

// kindHints say what a field of each kind takes.
var kindHints = map[elicit.Kind]func(elicit.Field) []string{
	elicit.KindString:  stringHints,
	elicit.KindNumber:  numberHints,
	elicit.KindInteger: numberHints,
	elicit.KindBoolean: func(elicit.Field) []string { return []string{"y or n"} },
	elicit.KindEnum:    func(elicit.Field) []string { return []string{"choose one by number"} },
	elicit.KindMulti:   func(elicit.Field) []string { return []string{"choose by numbers separated by commas"} },
}

// formatHints say what a string of each format is.
var formatHints = map[string]string{
	"email":     "an email address",
	"uri":       "a URL",
	"date":      "a date, YYYY-MM-DD",
	"date-time": "a date and time, YYYY-MM-DDTHH:MM:SSZ",
}

// stringHints are a string field's format and length bounds.
func stringHints(f elicit.Field) []string {
	var h []string
	if what, ok := formatHints[f.Format]; ok {
		h = append(h, what)
	}
	if f.MinLength != nil {
		h = append(h, fmt.Sprintf("at least %d characters", *f.MinLength))
	}
	if f.MaxLength != nil {
		h = append(h, fmt.Sprintf("at most %d characters", *f.MaxLength))
	}
	return h
}

// numberHints are a number field's kind with its bounds: "a whole number
// from 1 to 10".
func numberHints(f elicit.Field) []string {
	what := "a number"
	if f.Kind == elicit.KindInteger {
		what = "a whole number"
	}
	switch {
	case f.Minimum != nil && f.Maximum != nil:
		what += fmt.Sprintf(" from %v to %v", *f.Minimum, *f.Maximum)
	case f.Minimum != nil:
		what += fmt.Sprintf(" of at least %v", *f.Minimum)
	case f.Maximum != nil:
		what += fmt.Sprintf(" of at most %v", *f.Maximum)
	}
	return []string{what}
}

// fieldValue reads one typed line as the field's kind.
func fieldValue(f elicit.Field, line string) (any, error) {
	if parse, ok := kindValues[f.Kind]; ok {
		return parse(f, line)
	}
	return line, nil
}

// kindValues read a typed line as a value of each kind but a string's.
var kindValues = map[elicit.Kind]func(f elicit.Field, line string) (any, error){
	elicit.KindBoolean: boolValue,
	elicit.KindInteger: integerValue,
	elicit.KindNumber:  numberValue,
	elicit.KindEnum:    func(f elicit.Field, line string) (any, error) { return chooseOption(f, line) },
	elicit.KindMulti:   multiValue,
}

// boolValue reads y/yes/true or n/no/false.
func boolValue(_ elicit.Field, line string) (any, error) {
	switch strings.ToLower(line) {
	case "y", "yes", "true":
		return true, nil
	case "n", "no", "false":
		return false, nil
	}
	return nil, fmt.Errorf("please answer y or n")
}

// integerValue reads a whole number.
func integerValue(_ elicit.Field, line string) (any, error) {
	n, err := strconv.ParseInt(line, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%q is not a whole number", line)
	}
	return n, nil
}

// numberValue reads a number.
func numberValue(_ elicit.Field, line string) (any, error) {
	n, err := strconv.ParseFloat(line, 64)
	if err != nil {
		return nil, fmt.Errorf("%q is not a number", line)
	}
	return n, nil
}

// multiValue reads options separated by commas, each by number or value.
func multiValue(f elicit.Field, line string) (any, error) {
	var out []string
	for _, part := range strings.Split(line, ",") {
		v, err := chooseOption(f, part)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// chooseOption reads one of f's options, by its number from 1 or its value.
func chooseOption(f elicit.Field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(f.Options) {
		return f.Options[n-1].Value, nil
	}
	for _, o := range f.Options {
		if o.Value == s {
			return o.Value, nil
		}
	}
	return "", fmt.Errorf("%q is not one of the numbers 1 to %d", s, len(f.Options))
}
