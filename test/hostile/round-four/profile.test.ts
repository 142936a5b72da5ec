/**
 * Round four: a shell profile's block is added and removed with exact line ends. A file without a
 * final newline gets one before the block and has it taken away again only when the block is still
 * last; a line appended after the block later (an installer's) is never joined to the line before;
 * a file an editor turned to CRLF keeps its CRLF and its block is still found; blocks written by
 * 0.2.0 (LF markers, the state's `newline`) are removed as before.
 */
import { describe, expect, it } from "vitest";
import { addBlock, findBlock, removeBlock } from "../../../node/clients/marked-block.js";

const ID = "cliffcompaction";
const LINES = ["# Added by cliffcompaction enable; `cliffcompaction disable` removes it.", 'export ANTHROPIC_BASE_URL="http://127.0.0.1:8257"'];

describe("profile blocks", () => {
  it("a line appended after the block by an installer stays its own line when the block goes", () => {
    const original = "# my settings\nalias ll='ls -l'"; // no final newline
    const added = addBlock(original, ID, LINES);
    expect(added.newline).toBe(true);
    const later = added.text + "export PATH=\"$HOME/.tool/bin:$PATH\"\n";
    const removed = removeBlock(later, ID, added.newline);
    expect(removed).toBe("# my settings\nalias ll='ls -l'\nexport PATH=\"$HOME/.tool/bin:$PATH\"\n");
    expect(removed.split("\n")).toContain("alias ll='ls -l'");
  });

  it("the missing final newline comes back when the block is still last", () => {
    const original = "alias ll='ls -l'";
    const added = addBlock(original, ID, LINES);
    expect(removeBlock(added.text, ID, added.newline)).toBe(original);
  });

  it("a line appended after the block without a newline of its own is kept whole", () => {
    const added = addBlock("a=1\n", ID, LINES);
    const later = added.text + "b=2";
    expect(removeBlock(later, ID, added.newline)).toBe("a=1\nb=2");
  });

  it("CRLF files: the block is written with CRLF, found, and removed byte for byte", () => {
    const original = "a=1\r\nb=2\r\n";
    const added = addBlock(original, ID, LINES);
    expect(added.text).toBe(original + ["# >>> cliffcompaction >>>", ...LINES, "# <<< cliffcompaction <<<", ""].join("\r\n"));
    expect(findBlock(added.text, ID)).not.toBeNull();
    expect(removeBlock(added.text, ID, added.newline)).toBe(original);
    // An editor that turned an LF block to CRLF: still found and removed, nothing else touched.
    const converted = addBlock("x=1\n", ID, LINES).text.replace(/\n/g, "\r\n") + "y=2\r\n";
    expect(removeBlock(converted, ID, false)).toBe("x=1\r\ny=2\r\n");
  });

  it("a block written by 0.2.0 (LF, newline recorded in the state) is removed as before", () => {
    const v020 = "alias ll='ls -l'\n# >>> cliffcompaction >>>\n# Added by cliffcompaction enable; `cliffcompaction disable` removes it.\nexport ANTHROPIC_BASE_URL=\"http://127.0.0.1:8257\"\nexport OPENAI_BASE_URL=\"http://127.0.0.1:8257/v1\"\n# <<< cliffcompaction <<<\n";
    expect(removeBlock(v020, ID, true)).toBe("alias ll='ls -l'");
    expect(removeBlock(v020, ID, false)).toBe("alias ll='ls -l'\n");
    expect(removeBlock(v020 + "export X=1\n", ID, true)).toBe("alias ll='ls -l'\nexport X=1\n");
  });

  it("a block in the middle, with neighbours on both sides: exactly the block goes", () => {
    const before = "one\n";
    const after = "two\nthree";
    const text = before + ["# >>> cliffcompaction >>>", ...LINES, "# <<< cliffcompaction <<<", ""].join("\n") + after;
    expect(removeBlock(text, ID, false)).toBe(before + after);
    expect(removeBlock(text, ID, true)).toBe(before + after);
  });

  it("two instances' blocks after a file without a final newline: removed in either order, the file comes back byte for byte", () => {
    const original = "alias ll='ls -l'";
    for (const order of [["cliffcompaction", "cliffcompaction team"], ["cliffcompaction team", "cliffcompaction"]]) {
      const a = addBlock(original, "cliffcompaction", LINES);
      const b = addBlock(a.text, "cliffcompaction team", LINES);
      const flags: Record<string, boolean> = { cliffcompaction: a.newline, "cliffcompaction team": b.newline };
      const once = removeBlock(b.text, order[0], flags[order[0]]);
      expect(findBlock(once, order[1])).not.toBeNull();
      expect(removeBlock(once, order[1], flags[order[1]])).toBe(original);
    }
  });
});
