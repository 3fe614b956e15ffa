import { describe, expect, it } from "vitest";
import { addQuestion, closeQuestion, fieldError, formErrors, initialValues, inputType, serverLabel, toContent, urlParts } from "./elicit";
import type { ElicitField, ElicitQuestion, PendingElicitation } from "./types";

const fields: ElicitField[] = [
  { name: "name", kind: "string", required: true, min_length: 2, max_length: 5 },
  { name: "email", kind: "string", format: "email" },
  { name: "age", kind: "integer", minimum: 0, maximum: 150, default: 30 },
  { name: "ratio", kind: "number", maximum: 1 },
  { name: "ok", kind: "boolean", default: true },
  { name: "pet", kind: "enum", options: [{ value: "c", title: "Cat" }, { value: "d", title: "Dog" }], default: "d" },
  { name: "tags", kind: "multi", options: [{ value: "a", title: "A" }, { value: "b", title: "B" }, { value: "c", title: "C" }], min_items: 1, max_items: 2 },
  { name: "when", kind: "string", format: "date-time" },
  { name: "day", kind: "string", format: "date" },
  { name: "site", kind: "string", format: "uri" },
];
const question = (over: Partial<ElicitQuestion> = {}): ElicitQuestion => ({
  id: "eli_1", namespace: "forms", server_name: "Forms Server", session_id: "s1", turn_id: "t1", invocation: "inv1", call_id: "c1",
  tool: "forms.ask", mode: "form", message: "Who are you?", fields, deadline: "", seq: 1, ...over,
});

describe("elicitation form", () => {
  it("maps formats and kinds to input types", () => {
    expect(fields.map(inputType)).toEqual(["text", "email", "number", "number", "text", "text", "text", "datetime-local", "date", "url"]);
  });

  it("starts with the defaults, or the refused answer when asked again", () => {
    expect(initialValues(question())).toMatchObject({ name: "", email: "", age: "30", ratio: "", ok: true, pet: "d", tags: [], when: "" });
    const again = initialValues(question({ problem: "email: bad", previous: { name: "Ada", email: "x", tags: ["b"] } }));
    expect(again).toMatchObject({ name: "Ada", email: "x", age: "30", tags: ["b"] });
  });

  it("checks required, lengths, bounds, integers, formats and item counts", () => {
    const f = (n: string) => fields.find((x) => x.name === n)!;
    expect(fieldError(f("name"), "")).toBe("required");
    expect(fieldError(f("name"), "A")).toBe("at least 2 characters");
    expect(fieldError(f("name"), "Adaline")).toBe("at most 5 characters");
    expect(fieldError(f("name"), "Zoë")).toBe(""); // code points, not UTF-16 units
    expect(fieldError(f("email"), "")).toBe(""); // optional
    expect(fieldError(f("email"), "ada")).toBe("an email address, please");
    expect(fieldError(f("email"), "ada@example.org")).toBe("");
    expect(fieldError(f("age"), "3.5")).toBe("a whole number, please");
    expect(fieldError(f("age"), "-1")).toBe("at least 0");
    expect(fieldError(f("age"), "151")).toBe("at most 150");
    expect(fieldError(f("age"), "abc")).toBe("a number, please");
    expect(fieldError(f("ratio"), "0.5")).toBe("");
    expect(fieldError(f("ratio"), "1.5")).toBe("at most 1");
    expect(fieldError(f("pet"), "x")).toBe("choose one of the options");
    expect(fieldError(f("tags"), [])).toBe(""); // optional and empty
    expect(fieldError(f("tags"), ["a", "b", "c"])).toBe("choose at most 2");
    expect(fieldError({ ...f("tags"), required: true }, [])).toBe("choose at least one");
    expect(fieldError(f("site"), "example.com")).toMatch(/full address/);
    expect(fieldError(f("site"), "https://example.com")).toBe("");
    expect(fieldError(f("day"), "12/01/2026")).toBe("a date, please");
    expect(fieldError(f("ok"), false)).toBe("");
    expect(Object.keys(formErrors(question(), initialValues(question())))).toEqual(["name"]);
  });

  it("sends typed values and leaves empty optional fields out", () => {
    const v = { ...initialValues(question()), name: "Ada", age: "36", ratio: "", tags: ["a"], when: "2026-12-01T19:30", day: "2026-12-01" };
    const c = toContent(question(), v);
    expect(c).toMatchObject({ name: "Ada", age: 36, ok: true, pet: "d", tags: ["a"], day: "2026-12-01" });
    expect(c).not.toHaveProperty("email");
    expect(c).not.toHaveProperty("ratio");
    expect(c.when).toBe(new Date("2026-12-01T19:30").toISOString());
  });

  it("names the server and splits a URL around its host", () => {
    expect(serverLabel(question())).toBe("forms (Forms Server)");
    expect(serverLabel(question({ server_name: "forms" }))).toBe("forms");
    expect(urlParts("https://xn--bcher-kva.example/login?next=xn--bcher-kva.example", "xn--bcher-kva.example")).toEqual({
      before: "https://", host: "xn--bcher-kva.example", after: "/login?next=xn--bcher-kva.example",
    });
    expect(urlParts("https://a.example/", "")).toEqual({ before: "https://a.example/", host: "", after: "" });
  });

  it("queues questions oldest first; a question asked again replaces its round", () => {
    const p = (id: string, problem = ""): PendingElicitation => ({ question: question({ id, problem }), coworker: "w", coworker_name: "W", asked: "" });
    let l = addQuestion([], p("a"));
    l = addQuestion(l, p("b"));
    l = addQuestion(l, p("a", "email: bad"));
    expect(l.map((x) => x.question.id + x.question.problem)).toEqual(["aemail: bad", "b"]);
    l = closeQuestion(l, { id: "a", session_id: "s1", action: "decline", reason: "expired" });
    expect(l.map((x) => x.question.id)).toEqual(["b"]);
  });
});
