package model_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

func ExampleNew() {
	// A scripted OpenAI-compatible model on 127.0.0.1 (tests use modeltest.NewOpenAI).
	h := modeltest.NewHandler(modeltest.OpenAI, modeltest.Reply{Text: "Hello!"})
	srv := httptest.NewServer(h)
	defer srv.Close()

	cfg := model.FromEnv(model.Config{BaseURL: srv.URL + h.BasePath(), Model: "llama3.2"}, func(string) string { return "" })
	p, err := model.New(cfg)
	if err != nil {
		panic(err)
	}
	resp, err := p.Stream(context.Background(), model.Request{
		Messages: []model.Message{{Role: model.User, Text: "Say hello"}},
	}, func(delta string) { fmt.Printf("[%s]", delta) })
	if err != nil {
		panic(err)
	}
	fmt.Println()
	fmt.Println(resp.Text, resp.StopReason)
	// Output:
	// [Hel][lo!]
	// Hello! stop
}
