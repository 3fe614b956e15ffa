// Invisible and direction-changing characters (docs/app.md#hidden-characters),
// found as VS Code finds "invisible/bidi Unicode characters": a text that
// holds them can show something other than what it says (U+202E turns
// "invoice_\u202egpj.exe" into "invoice_exe.jpg"; U+200B is not seen at all).
// The dialogs that ask for a decision show each one as a visible marker
// ⟨U+202E⟩ instead; chat marks only the bidi controls, since emoji sequences
// need U+200D. Variation selectors (U+FE00–U+FE0F) are fine and never flagged.

/** "all": every character below; "bidi": only the embedding, override and isolate controls (chat). */
export type HiddenMode = "all" | "bidi";

/** A piece of a text: a plain run, or one flagged code point with its marker and name. */
export type Piece = { text: string; cp?: undefined } | { cp: number; mark: string; title: string };

const bidiNames: Record<number, string> = {
  0x202a: "left-to-right embedding", 0x202b: "right-to-left embedding", 0x202c: "pop directional formatting",
  0x202d: "left-to-right override", 0x202e: "right-to-left override",
  0x2066: "left-to-right isolate", 0x2067: "right-to-left isolate", 0x2068: "first strong isolate",
  0x2069: "pop directional isolate",
};
const markNames: Record<number, string> = {
  0x200e: "left-to-right mark", 0x200f: "right-to-left mark", 0x061c: "Arabic letter mark",
};
const invisibleNames: Record<number, string> = {
  0x200b: "zero width space", 0x200c: "zero width non-joiner", 0x200d: "zero width joiner",
  0x2060: "word joiner", 0x2061: "function application", 0x2062: "invisible times",
  0x2063: "invisible separator", 0x2064: "invisible plus", 0xfeff: "zero width no-break space",
  0x00ad: "soft hyphen", 0x180e: "Mongolian vowel separator", 0x115f: "Hangul choseong filler",
  0x1160: "Hangul jungseong filler", 0x3164: "Hangul filler", 0xffa0: "halfwidth Hangul filler",
};

/** hiddenName is the name of a flagged code point, or "" for any other. */
export function hiddenName(cp: number): string {
  if (bidiNames[cp]) return bidiNames[cp];
  if (markNames[cp]) return markNames[cp];
  if (invisibleNames[cp]) return invisibleNames[cp];
  if (cp >= 0xe0000 && cp <= 0xe007f) return "tag character";
  return "";
}

/** isHidden says whether cp is flagged in mode. */
export function isHidden(cp: number, mode: HiddenMode = "all"): boolean {
  return mode === "bidi" ? cp in bidiNames : hiddenName(cp) !== "";
}

/** hiddenMark is the marker shown for cp: ⟨U+202E⟩, at least four hex digits. */
export function hiddenMark(cp: number): string {
  return `⟨U+${cp.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

/** hiddenTitle is the tooltip of a marker: "right-to-left override (can disguise text)". */
export function hiddenTitle(cp: number): string {
  const disguises = cp in bidiNames || cp in markNames;
  return `${hiddenName(cp)} (${disguises ? "can disguise text" : "invisible"})`;
}

// Only the flagged ranges (U+00AD, U+061C, U+115F–U+1160, U+180E, U+200B–U+200F,
// U+202A–U+202E, U+2060–U+2069, U+3164, U+FEFF, U+FFA0, tags) can match.
const candidates = /[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\u3164\ufeff\uffa0]|\udb40[\udc00-\udc7f]/g;

/**
 * hiddenPieces splits s into plain runs and flagged code points, in order;
 * joining the runs and the characters of the flagged code points gives s
 * back. A tag character (a surrogate pair) is one piece; a lone surrogate
 * is left as text. Safe for any string; "" gives [].
 */
export function hiddenPieces(s: string, mode: HiddenMode = "all"): Piece[] {
  const out: Piece[] = [];
  let from = 0;
  for (const m of (s ?? "").matchAll(candidates)) {
    const cp = m[0].codePointAt(0)!;
    if (!isHidden(cp, mode)) continue;
    if (m.index > from) out.push({ text: s.slice(from, m.index) });
    out.push({ cp, mark: hiddenMark(cp), title: hiddenTitle(cp) });
    from = m.index + m[0].length;
  }
  if (from < (s ?? "").length) out.push({ text: s.slice(from) });
  return out;
}

/** countHidden is how many flagged code points s holds in mode. */
export function countHidden(s: string, mode: HiddenMode = "all"): number {
  return hiddenPieces(s, mode).filter((p) => p.cp !== undefined).length;
}

/** markHidden replaces each flagged code point by its marker: for places that hold only text (an option, an attribute). */
export function markHidden(s: string, mode: HiddenMode = "all"): string {
  return hiddenPieces(s, mode).map((p) => (p.cp === undefined ? p.text : p.mark)).join("");
}

/** hiddenWarning is the line shown above a dialog's arguments when they hold n flagged characters; "" for none. */
export function hiddenWarning(n: number, what = "These arguments hold"): string {
  if (n <= 0) return "";
  return `${what} ${n} invisible or direction-changing character${n === 1 ? "" : "s"}, shown as ⟨U+…⟩.`;
}

/**
 * markHiddenInTree replaces, under root, each flagged code point of a text
 * node by a <span class="uc-hidden"> marker, and in each attribute value by
 * the marker's text. Used on sanitized chat HTML (mode "bidi").
 */
export function markHiddenInTree(root: Node, mode: HiddenMode): void {
  const doc = root.ownerDocument ?? (root as Document);
  const walker = doc.createTreeWalker(root, 1 | 4); // elements and text
  const texts: Text[] = [];
  for (let n: Node | null = walker.currentNode; n; n = walker.nextNode()) {
    if (n.nodeType === 3) {
      if (countHidden(n.nodeValue ?? "", mode)) texts.push(n as Text);
    } else if (n.nodeType === 1) {
      for (const a of Array.from((n as Element).attributes)) {
        if (countHidden(a.value, mode)) a.value = markHidden(a.value, mode);
      }
    }
  }
  for (const t of texts) t.replaceWith(...hiddenNodes(doc, t.nodeValue ?? "", mode));
}

/** hiddenNodes is s as DOM nodes: text, and a marker span for each flagged code point. */
function hiddenNodes(doc: Document, s: string, mode: HiddenMode): Node[] {
  return hiddenPieces(s, mode).map((p) => {
    if (p.cp === undefined) return doc.createTextNode(p.text);
    const span = doc.createElement("span");
    span.className = "uc-hidden";
    span.title = p.title;
    span.textContent = p.mark;
    return span;
  });
}
