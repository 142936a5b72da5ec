/**
 * The recall's core: the texts a history holds are found by the refs a cliff names them by (the
 * texts the archive receives: one code path), in every dialect, through `compact` and the engine
 * (its re-read files included); a ref gives its text exactly, a long one in pages; a search gives
 * matching lines with ref and line number, bounded; an unknown ref or a bad input is a tool error.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compact, Engine, getDialect, memoryArchive, resolveConfig, type DialectName } from "../../core/index.js";
import {
  answerRecall, RecallTexts, recallInput, recallLine, recalledRefs, refOf, RECALL_INPUT_SCHEMA, RECALL_PAGE_CHARS, RECALL_TOOL_DESCRIPTION,
  RECALL_TOOL_NAME, SEARCH_LINE_MAX_CHARS, SEARCH_MAX_LINES,
} from "../../core/recall/index.js";
import { DIALECT_SESSIONS } from "../helpers/arbitraries.js";
import { agentSession } from "../../bench/agent-dialects.js";
import { aBody, aSession } from "../helpers/sessions.js";
import { runs } from "../helpers/scale.js";

const CFG = resolveConfig({ keepRecent: 1 });
const ROOT = "/archive";

/** Every text a recall-profile cliff of `messages` hands the archive is found by its ref, exactly. */
function everyArchivedTextFound(messages: unknown[], dialect: DialectName): number {
  const mem = memoryArchive(ROOT);
  const r = compact(messages, dialect, { keepRecent: 1 }, { archive: mem.archive });
  if (r === null) return 0;
  const texts = RecallTexts.of(messages, getDialect(dialect), CFG);
  for (const { text } of mem.received) expect(texts.get(refOf(text))?.text).toBe(text);
  return mem.received.length;
}

describe("the texts a history holds: every ref a cliff names is found", () => {
  for (const [name, arb] of DIALECT_SESSIONS) {
    it(`${name}: generated sessions`, () => {
      let found = 0;
      fc.assert(fc.property(arb, (msgs) => void (found += everyArchivedTextFound(msgs, name as DialectName))), { numRuns: runs(150) });
      // A plain session is text alone: no result or call to drop.
      if (name !== "plain") expect(found).toBeGreaterThan(0);
    });
  }

  for (const dialect of ["anthropic", "openai-chat", "openai-responses", "gemini", "pi", "plain"] as DialectName[]) {
    it(`${dialect}: agent sessions of the retention bench (reads, edits, writes, commands, plans)`, () => {
      let found = 0;
      for (let seed = 1; seed <= 6; seed++) found += everyArchivedTextFound(agentSession(dialect, seed), dialect);
      expect(found).toBeGreaterThan(20);
    });
  }

  it("the engine's cliffs, re-read files included (a captured Claude Code session with a stub)", () => {
    const f = JSON.parse(readFileSync(new URL("../fixtures/read-stubs/claude-2.1.185-8000.json", import.meta.url), "utf8"));
    const messages = f.sent.messages as unknown[];
    for (const threshold of [1500, 3000, 6000]) {
      const mem = memoryArchive(ROOT);
      const e = new Engine({ thresholdTokens: threshold, keepRecent: 1 }, { archive: mem.archive });
      for (let n = 2; n <= messages.length; n++) e.prepare({ model: "m", messages: messages.slice(0, n) }, "anthropic").outgoingBody();
      const texts = RecallTexts.of(messages, getDialect("anthropic"), CFG);
      for (const { text } of mem.received) expect(texts.get(refOf(text))?.text).toBe(text);
    }
  });

  it("a text twice in the history is one entry, at its first place; `end` bounds what is read", () => {
    const msgs = aSession(6);
    const texts = RecallTexts.of(msgs, getDialect("anthropic"), CFG);
    const long = texts.get(refOf("X".repeat(3000)))!;
    expect(long.kind).toBe("result");
    expect(long.at).toBe(2);
    expect(texts.list.filter((t) => t.text === "X".repeat(3000))).toHaveLength(1);
    expect(RecallTexts.of(msgs, getDialect("anthropic"), CFG, 2).get(long.ref)).toBeUndefined();
  });
});

const texts = (...results: string[]): RecallTexts => {
  const messages: unknown[] = [{ role: "user", content: "go" }];
  results.forEach((r, i) => {
    messages.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "bash", input: { command: `step ${i}` } }] });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: r }] });
  });
  return RecallTexts.of(messages, getDialect("anthropic"), CFG);
};

describe("a recall by ref", () => {
  it("gives the text exactly, nothing added, up to a page", () => {
    const text = "  exact\r\n bytes \u00e9\ud83d\ude00 kept\t \n".repeat(100);
    const a = answerRecall({ ref: refOf(text) }, texts(text));
    expect(a).toEqual({ text, isError: false, recalled: { ref: refOf(text), chars: text.length, given: text.length } });
    expect(answerRecall(JSON.stringify({ ref: refOf(text).toUpperCase() }), texts(text)).text).toBe(text);
  });

  it("gives a long text in pages of at least 20,000 characters, each saying what remains, never splitting a pair", () => {
    const text = "a".repeat(RECALL_PAGE_CHARS - 1) + "\ud83d\ude00" + "line\n".repeat(6000);
    const t = texts(text);
    const ref = refOf(text);
    let offset = 0;
    let joined = "";
    let pages = 0;
    for (;;) {
      const a = answerRecall({ ref, offset }, t);
      expect(a.isError).toBe(false);
      const nl = a.text.indexOf("\n");
      const note = a.text.slice(0, nl);
      const page = a.text.slice(nl + 1);
      expect(note).toContain(`of ${text.length.toLocaleString("en-US")}`);
      pages++;
      joined += page;
      if (note.includes("this is the end")) break;
      expect(page.length).toBeGreaterThanOrEqual(RECALL_PAGE_CHARS);
      const next = Number(/"offset": (\d+)/.exec(note)![1]);
      expect(note).toContain(`${(text.length - next).toLocaleString("en-US")} remain`);
      offset = next;
    }
    expect(pages).toBe(3);
    expect(joined).toBe(text);
    expect(answerRecall({ ref, offset: 0 }, t).recalled).toEqual({ ref, chars: text.length, given: RECALL_PAGE_CHARS + 1 });
  });

  it("an unknown ref, an offset past the end and a bad input are tool errors that say what to do", () => {
    const t = texts("x".repeat(300));
    const unknown = answerRecall({ ref: "0123456789ab" }, t);
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain("No text with ref 0123456789ab");
    expect(unknown.text).toContain('"search"');
    expect(answerRecall({ ref: refOf("x".repeat(300)), offset: 300 }, t).isError).toBe(true);
    for (const bad of [null, 3, "not json", [], {}, { ref: "xyz" }, { ref: refOf("x".repeat(300)), offset: -1 }, { ref: refOf("x".repeat(300)), offset: 1.5 }, { search: "  " }]) {
      const a = answerRecall(bad, t);
      expect(a.isError, JSON.stringify(bad)).toBe(true);
      expect(a.text.length).toBeGreaterThan(10);
    }
    expect(recallInput({ ref: " 7C928F4C697A ", offset: "3" })).toEqual({ ref: "7c928f4c697a", offset: 3 });
  });
});

describe("a search", () => {
  it("gives each matching line with its ref and line number, newest text first, case-insensitive", () => {
    const older = "alpha\nthe Deploy key is here\nomega";
    const newer = "one\ntwo\nthree deploy KEY\nfour\ndeploy key again";
    const a = answerRecall({ search: "deploy key" }, texts(older, newer));
    expect(a.isError).toBe(false);
    expect(a.matches).toBe(3);
    expect(a.text.split("\n").slice(1)).toEqual([`${refOf(newer)}:3: three deploy KEY`, `${refOf(newer)}:5: deploy key again`, `${refOf(older)}:2: the Deploy key is here`]);
    expect(answerRecall({ search: "nowhere" }, texts(older)).text).toContain("No line");
  });

  it("is bounded in lines and characters, and says how many more matched", () => {
    const text = ("hit " + "y".repeat(2000) + "\n").repeat(500);
    const a = answerRecall({ search: "HIT" }, texts(text));
    expect(a.matches).toBe(500);
    const lines = a.text.split("\n");
    expect(lines.filter((l) => l.startsWith(refOf(text)))).toHaveLength(SEARCH_MAX_LINES);
    expect(lines.every((l) => l.length <= SEARCH_LINE_MAX_CHARS + 30)).toBe(true);
    expect(a.text).toContain("460 more matching lines not shown");
  });

  it("counts line numbers right across many matches and long lines (one scan)", () => {
    const lines = Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? `match ${i}` : `other ${i}`));
    const a = answerRecall({ search: "match" }, texts(lines.join("\n")));
    const first = a.text.split("\n").slice(1, 4);
    expect(first).toEqual([1, 8, 15].map((n) => `${refOf(lines.join("\n"))}:${n}: match ${n - 1}`));
    expect(a.matches).toBe(Math.ceil(3000 / 7));
  });
});

describe("the tool and its line", () => {
  it("has its name, a description naming both uses, and a schema of ref, offset and search", () => {
    expect(RECALL_TOOL_NAME).toBe("cliff_recall");
    for (const w of ["ref", "search", "offset", "exactly"]) expect(RECALL_TOOL_DESCRIPTION).toContain(w);
    expect(Object.keys(RECALL_INPUT_SCHEMA.properties)).toEqual(["ref", "offset", "search"]);
  });

  it("the visible line names the ref and size, and is read back", () => {
    const text = "z".repeat(3778);
    const a = answerRecall({ ref: refOf(text) }, texts(text));
    const line = recallLine(a);
    expect(line).toBe(`[cliffcompaction recalled ref ${refOf(text)}, 3,778 chars]`);
    expect(recalledRefs(`before\n${line}\nafter ${line}`)).toEqual([refOf(text), refOf(text)]);
    expect(recallLine(answerRecall({ search: "z" }, texts(text)))).toBe("[cliffcompaction searched the earlier history, 1 matching line]");
    expect(recalledRefs("no line here")).toEqual([]);
  });

  it("an engine-sized session: the index is built over a whole body", () => {
    const body = aBody(aSession(40));
    const t = RecallTexts.of(body.messages as unknown[], getDialect("anthropic"), CFG);
    expect(t.get(refOf("X".repeat(3000)))).toBeDefined();
  });
});
