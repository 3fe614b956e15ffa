package a2a

import (
	"context"

	"github.com/a2aproject/a2a-go/a2a"
)

// Questions of an input-required task (docs/a2a.md#questions).

// answer sends the person's answer to the task's question and follows
// the task. An agent may refuse the message while it still winds down
// the run that asked (a2a-go answers "internal error" then); only when
// tasks/get shows that the task's history lacks the answer and the task
// still waits on the same question is it sent again, after
// Options.PollInterval, at most answerRetries times: the agent's own
// record proves it never took it.
func (f *follower) answer(ctx context.Context, params *a2a.MessageSendParams) error {
	question := statusKey(f.task.Status)
	f.answered, f.answerID = question, params.Message.ID
	for try := 0; ; try++ {
		f.task.Status = a2a.TaskStatus{State: a2a.TaskStateWorking} // until the agent says otherwise
		err := f.follow(ctx, params)
		if err == nil || ctx.Err() != nil || try == answerRetries {
			return err
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-f.a.opts.After(f.a.opts.PollInterval):
		}
		task, gerr := f.a.rpc.GetTask(ctx, &a2a.TaskQueryParams{ID: f.taskID})
		if gerr != nil || task.Status.State != a2a.TaskStateInputRequired || statusKey(task.Status) != question || hasMessage(task, params.Message.ID) {
			return err
		}
	}
}

// answerRetries bounds how often an answer the agent refused is sent
// again (10 s with the default poll interval).
const answerRetries = 10

func hasMessage(t *a2a.Task, id string) bool {
	for _, m := range t.History {
		if m != nil && m.ID == id {
			return true
		}
	}
	return false
}

// statusKey identifies a status: its message's ID, else its time.
func statusKey(st a2a.TaskStatus) string {
	if st.Message != nil && st.Message.ID != "" {
		return "msg:" + st.Message.ID
	}
	if st.Timestamp != nil {
		return "at:" + st.Timestamp.String()
	}
	return ""
}

// follow sends one message and follows the task until the call has its
// answer.
func (f *follower) follow(ctx context.Context, params *a2a.MessageSendParams) error {
	if f.a.Streaming() {
		return f.stream(ctx, params)
	}
	return f.send(ctx, params)
}
