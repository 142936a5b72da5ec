/**
 * A re-read that comes back empty (issue #31), on requests a real Claude Code 2.1.185 sent through
 * `cliffcompaction run` (test/fixtures/read-stubs, made by test/agents/capture-read-stubs.ts): it
 * read notes.txt, ran three commands, read notes.txt again and got a stub. The request after the
 * stub must hold the file's text in both profiles, through `compact` and through the engine, warm
 * (every request of the session in turn) as cold (the last one alone); each of the three wordings
 * triggers the rule; the wording anywhere else changes nothing; the key turns it off.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compact, Engine, memoryArchive, resolveConfig, type Config } from "../../core/index.js";
import { READ_STUB_OPENINGS, STATE_CURRENT_TRAILER } from "../../core/parts/index.js";
import { refOf } from "../../core/recall/index.js";

interface Fixture {
  provenance: Record<string, unknown>;
  sent: Record<string, unknown> & { messages: any[] };
  runs: Record<"reference" | "recall", { actions: string[]; sentMessageCounts: number[]; reached: any[] }>;
}

const load = (threshold: number): Fixture => JSON.parse(readFileSync(new URL(`../fixtures/read-stubs/claude-2.1.185-${threshold}.json`, import.meta.url), "utf8"));
const FIXTURES = { 8000: load(8000), 30000: load(30000) };
const PROFILES = ["reference", "recall"] as const;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

/** The text of the first Read's result: the file as the agent saw it. */
function firstRead(f: Fixture): string {
  const readId = f.sent.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === "tool_use" && b.name === "Read").id;
  const result = f.sent.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === "tool_result" && b.tool_use_id === readId);
  return result.content as string;
}

/** The stub block: the last tool_result of the last request. */
function stubBlock(messages: any[]): any {
  const last = messages[messages.length - 1];
  return last.content.find((b: any) => b.type === "tool_result");
}

const FILE_LINE = "The deploy key lives in vault path secret/build/farm-42; rotate it every 30 days.";

describe("the captured session: what reached the model without the rule", () => {
  it.each([8000, 30000] as const)("%i: the stub and no copy of the file (the defect the fixtures were made to show)", (t) => {
    const f = FIXTURES[t];
    expect(stubBlock(f.sent.messages).content).toBe(READ_STUB_OPENINGS[0]);
    expect(JSON.stringify(f.sent.messages)).toContain(FILE_LINE);
    for (const p of PROFILES) {
      const reached = JSON.stringify(f.runs[p].reached);
      expect(reached).toContain("Wasted call");
      expect(reached).not.toContain("QX1037");
      expect(f.runs[p].actions).toContain("cliff");
    }
  });
});

// Thresholds that cliff on the redacted requests (their system prompt and tools are placeholders now).
const THRESHOLDS = { 8000: [1500, 3000], 30000: [6000, 12000] };

function cfgOf(profile: (typeof PROFILES)[number], threshold: number, more: Partial<Config> = {}): Config {
  // The working set (workingSetFileMaxChars) keeps a file's newest read on its own: these tests watch the stub rules alone.
  return resolveConfig({ profile, thresholdTokens: threshold, workingSetFileMaxChars: 0, ...more });
}

/** The engine's outgoing messages for the last request: warm (every request in turn) or cold (the last alone). */
function engineRun(f: Fixture, cfg: Config, warm: boolean, messages = f.sent.messages): { out: unknown[]; compacted: boolean } {
  const engine = new Engine(cfg, { archive: memoryArchive("/archive").archive });
  const counts = f.runs.reference.sentMessageCounts;
  let ctx = null as ReturnType<Engine["prepare"]> | null;
  for (const n of warm ? counts : [messages.length]) ctx = engine.prepare({ ...f.sent, messages: clone(messages.slice(0, n === counts[counts.length - 1] ? messages.length : n)) }, "anthropic");
  return { out: ctx!.substituted, compacted: ctx!.modified };
}

describe("the stubbed read is kept: compact and the engine, both profiles, warm = cold", () => {
  for (const t of [8000, 30000] as const) {
    const f = FIXTURES[t];
    const file = firstRead(f);
    for (const profile of PROFILES) {
      it(`${t}, ${profile}: compact keeps the whole first read in the summary, the stub stays in the tail`, () => {
        const r = compact(f.sent.messages, "anthropic", cfgOf(profile, 0));
        expect(r).not.toBeNull();
        expect(r!.summaryText).toContain(`[Read] {"file_path":"/tmp/cliff-read-stub/work/notes.txt"}\nresult: ${file.trim()}`);
        expect(JSON.stringify(r!.messages.slice(r!.headLen + 1))).toContain("Wasted call");
        const off = compact(f.sent.messages, "anthropic", cfgOf(profile, 0, { keepStubbedReads: false }));
        expect(off!.summaryText).not.toContain("QX1037");
      });

      for (const threshold of THRESHOLDS[t]) {
        for (const minGainTokens of [0, threshold / 10]) {
          it(`${t}, ${profile}: the engine at ${threshold} (minimum gain ${minGainTokens}) sends the file's text after the stub, warm = cold`, () => {
            const cfg = cfgOf(profile, threshold, { minGainTokens });
            const warm = engineRun(f, cfg, true);
            const cold = engineRun(f, cfg, false);
            expect(warm.compacted).toBe(true);
            expect(JSON.stringify(warm.out)).toBe(JSON.stringify(cold.out));
            const sent = JSON.stringify(warm.out);
            expect(sent).toContain("Wasted call");
            expect(sent).toContain("QX1037");
            expect(sent).toContain(JSON.stringify(FILE_LINE).slice(1, -1));
            const off = engineRun(f, cfgOf(profile, threshold, { minGainTokens, keepStubbedReads: false }), true);
            expect(JSON.stringify(off.out)).not.toContain("QX1037");
          });
        }
      }
    }
  }
});

/** The fixture's last request with its stub's content replaced. */
function withStub(f: Fixture, content: unknown): any[] {
  const messages = clone(f.sent.messages);
  stubBlock(messages).content = content;
  return messages;
}

const summaryOf = (messages: any[], profile: (typeof PROFILES)[number], more: Partial<Config> = {}): string => compact(messages, "anthropic", cfgOf(profile, 0, more))!.summaryText;

describe("each of the three wordings, from the result's first character", () => {
  const f = FIXTURES[8000];
  const texts = [READ_STUB_OPENINGS[0], READ_STUB_OPENINGS[1], READ_STUB_OPENINGS[2] + ". Refer to the earlier Read result.</system-reminder>"];
  for (const profile of PROFILES) {
    it.each(texts.map((t, i) => [i + 1, t] as const))(`${profile}: wording %i as a string content and as the first text block`, (_i, text) => {
      expect(summaryOf(withStub(f, text), profile)).toContain("QX1037");
      expect(summaryOf(withStub(f, [{ type: "text", text }]), profile)).toContain("QX1037");
      expect(summaryOf(withStub(f, [{ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } }, { type: "text", text }]), profile)).toContain("QX1037");
    });
  }
});

describe("decoys change nothing: the wording anywhere but a tool_result's first character", () => {
  const f = FIXTURES[8000];
  const plain = (messages: any[], profile: (typeof PROFILES)[number]): string => summaryOf(messages, profile, { keepStubbedReads: false });
  const stub = READ_STUB_OPENINGS[0];
  const decoys: [string, (m: any[]) => void][] = [
    ["in a user message", (m) => {
      stubBlock(m).content = "ok";
      m[m.length - 1].content.push({ type: "text", text: stub });
    }],
    ["in a file's content (not at its start)", (m) => void (stubBlock(m).content = "1\tnotes about caching\n2\t" + stub)],
    ["after a space", (m) => void (stubBlock(m).content = " " + stub)],
    ["in a later block of the result", (m) => void (stubBlock(m).content = [{ type: "text", text: "see below" }, { type: "text", text: stub }])],
    ["as the result of a tool that is not Read", (m) => {
      const call = m[m.length - 2].content.find((b: any) => b.type === "tool_use");
      call.name = "Bash";
      call.input = { command: "cat notes.txt" };
    }],
    ["after a partial read of the file only", (m) => {
      const first = m.flatMap((x: any) => (Array.isArray(x.content) ? x.content : [])).find((b: any) => b.type === "tool_use" && b.name === "Read");
      first.input = { ...first.input, offset: 1, limit: 80 };
    }],
  ];
  for (const profile of PROFILES) {
    it.each(decoys)(`${profile}: %s`, (_name, change) => {
      const m = clone(f.sent.messages);
      change(m);
      expect(summaryOf(m, profile)).toBe(plain(m, profile));
      expect(summaryOf(m, profile)).not.toContain("QX1037");
    });
  }
});

describe("the Edit/Write trailer (recall profile)", () => {
  const f = FIXTURES[8000];
  /** The second Read becomes an Edit of the same file that Claude Code answered with its trailer. */
  const edited = (): any[] => {
    const m = clone(f.sent.messages);
    const call = m[m.length - 2].content.find((b: any) => b.type === "tool_use");
    call.name = "Edit";
    call.input = { file_path: call.input.file_path, old_string: "setting-01 = value-7919", new_string: "setting-01 = value-1" };
    stubBlock(m).content = `The file ${call.input.file_path} has been updated successfully.${STATE_CURRENT_TRAILER}`;
    return m;
  };

  // The recall profile's tail focus may excerpt a few of the file's lines: the whole read is what the rule keeps.
  const whole = `result: ${firstRead(f).trim()}`;

  it("recall keeps the file's newest text the summary dropped; the reference profile does not (out of its scope)", () => {
    expect(summaryOf(edited(), "recall")).toContain(`[Read] {"file_path":"/tmp/cliff-read-stub/work/notes.txt"}\n${whole}`);
    expect(summaryOf(edited(), "reference")).not.toContain("QX1037");
    expect(summaryOf(edited(), "recall", { keepEditedFiles: false })).not.toContain(whole);
  });

  it("a result without the trailer, or with it not at the end, keeps nothing", () => {
    for (const content of ["The file has been updated successfully.", `The file has been updated successfully.${STATE_CURRENT_TRAILER} And more.`]) {
      const m = edited();
      stubBlock(m).content = content;
      expect(summaryOf(m, "recall")).not.toContain(whole);
    }
  });
});

describe("within pinMaxChars, a ref naming the whole", () => {
  it("a cap below the file's length keeps its start and names the whole text by its ref (the export receiving it)", () => {
    const f = FIXTURES[8000];
    const mem = memoryArchive("/archive");
    const r = compact(f.sent.messages, "anthropic", cfgOf("reference", 0, { pinMaxChars: 1000, refs: true, recallTool: true }), { archive: mem.archive });
    const file = firstRead(f);
    expect(r!.summaryText).toContain("result: " + file.slice(0, 1000) + "...\nresult: dropped " + file.length.toLocaleString("en-US") + " chars, ref " + refOf(file));
    expect([...mem.files.values()]).toContain(file);
    // The reference's own lines name no ref.
    expect(compact(f.sent.messages, "anthropic", cfgOf("reference", 0, { pinMaxChars: 1000 }))!.summaryText).toContain("result: " + file.slice(0, 1000) + "...");
    expect(compact(f.sent.messages, "anthropic", cfgOf("reference", 0, { pinMaxChars: 1000 }))!.summaryText).not.toContain("chars, ref ");
    expect(compact(f.sent.messages, "anthropic", cfgOf("reference", 0, { pinMaxChars: 0 }))!.summaryText).not.toContain("QX1037");
  });
});

describe("where the stub and the read stand", () => {
  const f = FIXTURES[8000];
  const whole = `result: ${firstRead(f).trim()}`;

  it("a stub in the compacted span (no turn kept) keeps the read too", () => {
    for (const profile of PROFILES) expect(summaryOf(f.sent.messages, profile, { keepRecent: 0 })).toContain(whole);
  });

  it("a Write whose result claims the file is in context keeps its whole text in the recall profile (longer than the edit cap)", () => {
    const m = clone(f.sent.messages);
    const calls = m.flatMap((x: any) => (Array.isArray(x.content) ? x.content : [])).filter((b: any) => b.type === "tool_use");
    const content = firstRead(f).replace(/^\d+\t/gm, "");
    calls[0].name = "Write";
    calls[0].input = { file_path: calls[0].input.file_path, content };
    const results = m.flatMap((x: any) => (Array.isArray(x.content) ? x.content : [])).filter((b: any) => b.type === "tool_result");
    results[0].content = `File created successfully at: ${calls[0].input.file_path}${STATE_CURRENT_TRAILER}`;
    // The second Read becomes a Bash call: nothing else points at the file.
    calls[calls.length - 1].name = "Bash";
    calls[calls.length - 1].input = { command: "true" };
    stubBlock(m).content = "";
    const recall = summaryOf(m, "recall");
    expect(content.length).toBeGreaterThan(1000);
    expect(recall).toContain(`[Write] ${calls[0].input.file_path}\n${content}`);
    expect(summaryOf(m, "reference")).not.toContain(content.slice(0, 300));
  });

  it("through the engine, the file is sent exactly while the stub is: once the stub's turn is in an older cliff's span, neither is", () => {
    // The session goes on with more commands after the stub, each request the history so far.
    const more: any[] = [];
    for (let i = 0; i < 8; i++) {
      const id = `toolu_more_${i}`;
      more.push({ role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command: `seq ${i} 900`, description: "print numbers" } }] });
      more.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: Array.from({ length: 900 }, (_, k) => String(k + i)).join("\n") }] });
    }
    const all = [...f.sent.messages, ...more];
    const counts = [...f.runs.reference.sentMessageCounts, ...more.map((_, i) => f.sent.messages.length + i + 1).filter((n) => n % 2 === 0)];
    for (const profile of PROFILES) {
      const engine = new Engine(cfgOf(profile, 1500), { archive: memoryArchive("/archive").archive });
      const seen: [boolean, boolean][] = [];
      for (const n of counts) {
        const sent = JSON.stringify(engine.prepare({ ...f.sent, messages: clone(all.slice(0, n)) }, "anthropic").substituted);
        seen.push([sent.includes("Wasted call"), sent.includes(JSON.stringify(whole).slice(1, -1))]);
      }
      for (const [stub, file] of seen) expect(file).toBe(stub);
      expect(seen.some(([stub]) => stub)).toBe(true);
      expect(seen[seen.length - 1]).toEqual([false, false]);
    }
  });

  it("after an upstream refusal, the engine's next rung still sends the file once", () => {
    const engine = new Engine(cfgOf("reference", 9000, { strict: true }), { archive: memoryArchive("/archive").archive });
    const ctx = engine.prepare({ ...f.sent, messages: clone(f.sent.messages) }, "anthropic");
    const count = (): number => JSON.stringify(ctx.substituted).split("[Read] {\\\"file_path\\\"").length - 1;
    expect(count()).toBe(1);
    let steps = 0;
    while (engine.reactive(ctx) && steps < 5) {
      steps++;
      expect(count()).toBe(1);
      expect(JSON.stringify(ctx.substituted)).toContain("QX1037");
    }
    expect(steps).toBeGreaterThan(0);
  });
});
