/**
 * Session text on a terminal is inert: every control (C0, C1, ESC, DEL) and every bidirectional
 * control is shown as a visible escape, columns are counted in terminal cells (wide characters 2,
 * combining marks 0), and output to a pipe keeps the exact bytes.
 */
import { describe, expect, it } from "vitest";
import { charWidth, fitCells, forStream, hasControls, inertBlock, inertCell, textWidth } from "../../cli/terminal-text.js";

/** What an attacker puts in a tool output: OSC 52 (clipboard), clear screen, colour, C1 CSI, DEL, bidi overrides and isolates, NUL, BEL, backspace, CR. */
export const HOSTILE = "a\x1b]52;c;ZXZpbA==\x07b\x1b[2Jc\x1b[31md\x9b2Je\x7ff\u202eg\u2066h\u2069i\x00j\x08k\rl\u200fm\x1bPq\x1b\\n";

/** Any character a terminal acts on, outside line breaks: none may reach the screen from session text. */
export const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

describe("inert text", () => {
  it("every control and bidi control is shown as a visible escape, the rest kept", () => {
    const cell = inertCell(HOSTILE);
    expect(cell).not.toMatch(ACTIVE);
    expect(cell).toContain("\\x1b]52;c;ZXZpbA==\\x07");
    expect(cell).toContain("\\x9b2J");
    expect(cell).toContain("\\x7f");
    expect(cell).toContain("\\u202e");
    expect(cell).toContain("\\u2066");
    expect(cell).toContain("\\x00");
    expect(cell.replace(/\\(x[0-9a-f]{2}|u[0-9a-f]{4})/g, "")).toBe("a]52;c;ZXZpbA==b[2Jc[31md2Jefghijklm" + "Pq\\n");
    expect(inertCell("tab\there\nnext")).toBe("tab\\x09here\\x0anext");
  });

  it("a block keeps its line breaks and tabs, and shows the rest", () => {
    expect(inertBlock("one\n\ttwo\x1b[2J\r\n")).toBe("one\n\ttwo\\x1b[2J\\x0d\n");
    expect(inertBlock(HOSTILE)).not.toMatch(ACTIVE);
    expect(hasControls("plain\ttext\n")).toBe(false);
    expect(hasControls("x\u202ey")).toBe(true);
  });

  it("a terminal gets the escaped form; a pipe or a file the exact bytes", () => {
    expect(forStream(HOSTILE, { isTTY: true })).toBe(inertBlock(HOSTILE));
    expect(forStream(HOSTILE, { isTTY: false })).toBe(HOSTILE);
    expect(forStream(HOSTILE, {})).toBe(HOSTILE);
  });
});

describe("widths in terminal cells", () => {
  it("wide and fullwidth 2, combining marks 0, the rest 1", () => {
    expect(textWidth("abc")).toBe(3);
    expect(textWidth("日本語")).toBe(6);
    expect(textWidth("ＡＢ")).toBe(4);
    expect(textWidth("한국")).toBe(4);
    expect(textWidth("e\u0301")).toBe(1);
    expect(textWidth("🚀x")).toBe(3);
    expect(charWidth("\u200b")).toBe(0);
    expect(textWidth("…")).toBe(1);
  });

  it("fit pads or cuts to exactly the cells asked for, never splitting a wide character", () => {
    for (const text of ["日本語のテキスト", "abc日本", "ascii only text", "e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301", "🚀🚀🚀🚀🚀"]) {
      for (let w = 1; w < 14; w++) expect(textWidth(fitCells(text, w)), `${text} @${w}`).toBe(w);
    }
    expect(fitCells("日本語", 5)).toBe("日本…");
    expect(fitCells("日本語", 4)).toBe("日… ");
    expect(fitCells("日本", 6)).toBe("日本  ");
  });
});
