import { describe, expect, it } from "vitest";
import { countHidden, hiddenMark, hiddenPieces, hiddenTitle, hiddenWarning, isHidden, markHidden, markHiddenInTree } from "./unicode";

const ranges: [number, number][] = [
  [0x202a, 0x202e], [0x2066, 0x2069], [0x200e, 0x200f], [0x061c, 0x061c],
  [0x200b, 0x200d], [0x2060, 0x2064], [0xfeff, 0xfeff], [0x00ad, 0x00ad], [0x180e, 0x180e],
  [0x115f, 0x1160], [0x3164, 0x3164], [0xffa0, 0xffa0], [0xe0000, 0xe007f],
];
const bidi = new Set<number>();
for (const [a, b] of [[0x202a, 0x202e], [0x2066, 0x2069]]) for (let c = a; c <= b; c++) bidi.add(c);

describe("hiddenPieces", () => {
  it("flags every code point of every listed range, alone and between letters", () => {
    for (const [a, b] of ranges) {
      for (let cp = a; cp <= b; cp++) {
        const ch = String.fromCodePoint(cp);
        const got = hiddenPieces(`a${ch}b`);
        expect(got, `U+${cp.toString(16)}`).toEqual([{ text: "a" }, { cp, mark: hiddenMark(cp), title: hiddenTitle(cp) }, { text: "b" }]);
        expect(got[1].cp !== undefined && got[1].title).not.toMatch(/^ \(/); // every one has a name
        expect(isHidden(cp, "bidi"), `bidi U+${cp.toString(16)}`).toBe(bidi.has(cp));
      }
    }
  });

  it("leaves neighbours of the ranges, variation selectors and ordinary text alone", () => {
    const fine = [0x2029, 0x202f, 0x2065, 0x206a, 0x200a, 0x2010, 0xfe0f, 0xfe00, 0xe0080, 0xdffff, 0x061b, 0x00ac, 0x3163, 0x1f600];
    for (const cp of fine) expect(hiddenPieces(`x${String.fromCodePoint(cp)}y`), `U+${cp.toString(16)}`).toHaveLength(1);
    expect(hiddenPieces("")).toEqual([]);
    expect(hiddenPieces("plain")).toEqual([{ text: "plain" }]);
  });

  it("finds the spoofed file name and marks it as VS Code does", () => {
    const s = "invoice_\u202egpj.exe\u202c and zero\u200bwidth";
    expect(countHidden(s)).toBe(3);
    expect(markHidden(s)).toBe("invoice_⟨U+202E⟩gpj.exe⟨U+202C⟩ and zero⟨U+200B⟩width");
    expect(hiddenTitle(0x202e)).toBe("right-to-left override (can disguise text)");
    expect(hiddenTitle(0x200b)).toBe("zero width space (invisible)");
    expect(hiddenWarning(3)).toBe("These arguments hold 3 invisible or direction-changing characters, shown as ⟨U+…⟩.");
    expect(hiddenWarning(1)).toContain("1 invisible or direction-changing character,");
    expect(hiddenWarning(0)).toBe("");
  });

  it("keeps surrogate pairs whole: a tag is one piece, emoji and lone surrogates are text", () => {
    const flag = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"; // England flag: tags
    const pieces = hiddenPieces(flag);
    expect(pieces).toHaveLength(7);
    expect(pieces[0]).toEqual({ text: "\u{1F3F4}" });
    expect(pieces.slice(1).map((p) => p.cp)).toEqual([0xe0067, 0xe0062, 0xe0065, 0xe006e, 0xe0067, 0xe007f]);
    expect(markHidden("\u{E0041}")).toBe("⟨U+E0041⟩");
    expect(hiddenPieces("\udb40 \udc41")).toEqual([{ text: "\udb40 \udc41" }]);
    expect(hiddenPieces("😀\u202e😀")).toEqual([{ text: "😀" }, { cp: 0x202e, mark: "⟨U+202E⟩", title: hiddenTitle(0x202e) }, { text: "😀" }]);
  });

  it("in chat mode keeps emoji ZWJ sequences and zero-width characters, and marks bidi controls", () => {
    const family = "👨\u200d👩\u200d👧\u200d👦 and 🏳️\u200d🌈 a\u200bb \u200ex";
    expect(hiddenPieces(family, "bidi")).toEqual([{ text: family }]);
    expect(countHidden(family, "all")).toBe(6);
    expect(markHidden("say \u202eevil\u202c \u2067x\u2069", "bidi")).toBe("say ⟨U+202E⟩evil⟨U+202C⟩ ⟨U+2067⟩x⟨U+2069⟩");
  });
});

describe("markHiddenInTree", () => {
  it("replaces text-node controls by marker spans and attribute controls by marker text", () => {
    const t = document.createElement("template");
    t.innerHTML = `<p title="a\u202eb">x\u202ey <b>z\u2066</b>👩\u200d💻</p>`;
    markHiddenInTree(t.content, "bidi");
    const p = t.content.querySelector("p")!;
    expect(p.getAttribute("title")).toBe("a⟨U+202E⟩b");
    expect(p.textContent).toBe("x⟨U+202E⟩y z⟨U+2066⟩👩\u200d💻");
    const spans = p.querySelectorAll("span.uc-hidden");
    expect(spans).toHaveLength(2);
    expect(spans[0].getAttribute("title")).toBe("right-to-left override (can disguise text)");
    expect(t.innerHTML).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });
});
