import { describe, expect, it } from "vitest";
import { hash } from "node:crypto";

const nodeHash = (text: string): string => hash("sha256", text, "hex");
import { runInNewContext } from "node:vm";
import { MessageMemo } from "../../core/engine/memo.js";
import { Engine } from "../../core/index.js";
import { aBody, aSession } from "../helpers/sessions.js";

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

/** A memo and a cost function that counts how often it really ran. */
function counted(maxChars?: number) {
  const memo = maxChars === undefined ? new MessageMemo() : new MessageMemo(maxChars);
  let runs = 0;
  const cost = (m: unknown) => {
    runs++;
    return JSON.stringify(m).length;
  };
  return { get: (m: unknown) => memo.get(m, cost), runs: () => runs };
}

const message = (text: string, extra: Record<string, unknown> = {}) => ({
  role: "user",
  content: [{ type: "tool_result", tool_use_id: "t1", content: text, ...extra }],
});

describe("message memo", () => {
  it("a history parsed anew shares the entries of equal messages instead of recomputing them", () => {
    const m = counted();
    const first = aSession(6).map(m.get);
    expect(m.runs()).toBe(13);
    const again = clone(aSession(6)).map(m.get);
    expect(m.runs()).toBe(13);
    again.forEach((e, i) => expect(e).toBe(first[i]));
  });

  it("any difference in content gives a new entry, however alike the messages look", () => {
    const m = counted();
    const long = "a".repeat(500) + "b".repeat(500);
    const base = m.get(message(long));
    // Same length, same first, middle and last characters: only a full comparison tells them apart.
    const variants = [
      message("a".repeat(499) + "c" + "b".repeat(500)),
      message("a".repeat(500) + "b".repeat(250) + "x" + "b".repeat(249)),
      message(long, { is_error: true }),
      message(long, { is_error: false }),
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: long }] },
      { role: "user", content: [{ type: "tool_result", content: long, tool_use_id: "t1" }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: [long] }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: 1, content: long }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "1", content: long }] },
    ];
    for (const v of variants) expect(m.get(v)).not.toBe(base);
    expect(m.runs()).toBe(1 + variants.length);
    expect(m.get(message(long))).toBe(base);
    expect(m.runs()).toBe(1 + variants.length);
  });

  it("numbers, booleans and nulls are compared by value, NaN included", () => {
    const m = counted();
    const a = m.get({ role: "user", content: [1, true, null, Number.NaN] });
    expect(m.get({ role: "user", content: [1, true, null, Number.NaN] })).toBe(a);
    expect(m.get({ role: "user", content: [1, true, null, 0] })).not.toBe(a);
    expect(m.get({ role: "user", content: [1, "true", null, Number.NaN] })).not.toBe(a);
  });

  it("an object edited in place is recomputed, and so is an object that is not plain data", () => {
    const m = counted();
    const msg = message("first");
    const before = m.get(msg);
    (msg.content[0] as { content: string }).content = "second";
    expect(m.get(msg)).not.toBe(before);
    class Note {
      constructor(readonly text: string) {}
    }
    // Class instances may serialise in their own way, so equal keys prove nothing about them.
    const one = m.get({ role: "user", content: [new Note("x")] });
    expect(m.get({ role: "user", content: [new Note("x")] })).not.toBe(one);
    const date = m.get({ role: "user", content: [new Date(0)] });
    expect(m.get({ role: "user", content: [new Date(1)] })).not.toBe(date);
  });

  it("recognises plain data made in another realm (a sandbox) too", () => {
    const m = counted();
    const make = () => runInNewContext('({ role: "user", content: [{ type: "text", text: "hi" }], meta: Object.create(null) })');
    const a = m.get(make());
    expect(m.get(make())).toBe(a);
    expect(m.runs()).toBe(1);
  });

  it("keeps at most the bytes it was given, dropping the least recently used content first", () => {
    // Three 1,000-character messages are about 6.6 kB; two fit.
    const m = counted(5000);
    const a = m.get(message("a".repeat(1000)));
    const b = m.get(message("b".repeat(1000)));
    expect(m.get(clone(message("a".repeat(1000))))).toBe(a); // a is now the most recent
    m.get(message("c".repeat(1000))); // over budget: b goes
    expect(m.get(clone(message("a".repeat(1000))))).toBe(a);
    expect(m.get(clone(message("b".repeat(1000))))).not.toBe(b);
  });

  it("a cyclic value goes to the cost function (which reports it) instead of hanging the memo", () => {
    const m = counted();
    const loop: Record<string, unknown> = { role: "user" };
    loop.content = [loop];
    expect(() => m.get(loop)).toThrow(); // the counting cost function serialises it
    expect(m.runs()).toBe(1);
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 50_000; i++) at = (at.next = {}) as Record<string, unknown>;
    const seen = new MessageMemo().get(deep, () => 7);
    expect(seen.cost).toBe(7);
  });
});

describe("engine on a history parsed anew each request", () => {
  it("gives the same outgoing bodies as with the same objects, and reuses their chain", () => {
    const s = aSession(40);
    const same = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    const parsed = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    for (let n = 9; n <= s.length; n += 2) {
      const a = same.prepare(aBody(s.slice(0, n)), "anthropic");
      const b = parsed.prepare(clone(aBody(s.slice(0, n))), "anthropic");
      expect(JSON.stringify(b.outgoingBody())).toBe(JSON.stringify(a.outgoingBody()));
    }
    const msgs = clone(s);
    expect(msgs.map((x) => parsed.digest(x, "anthropic"))).toEqual(s.map((x) => same.digest(x, "anthropic")));
  });
});

describe("engine and messages edited in place", () => {
  it("a cliff is never stored under contents the host changed after the request that made it", () => {
    const s = clone(aSession(14));
    const e = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    const first = e.prepare(aBody(s.slice(0, 21)), "anthropic");
    expect(first.compacted).toBe(true);
    // Inside the cliff's prefix, before the store is next used; the same length, so the same cost.
    (s[3] as any).content[0].text = (s[3] as any).content[0].text.replace("Step", "STEP");
    const warm = e.prepare(aBody(s.slice(0, 21)), "anthropic");
    const cold = new Engine({ thresholdTokens: 2000, keepRecent: 1 }).prepare(clone(aBody(s.slice(0, 21))), "anthropic");
    expect(warm.matched).toBe(false);
    expect(JSON.stringify(warm.outgoingBody())).toBe(JSON.stringify(cold.outgoingBody()));
  });
});

describe("engine and a host that edits what it was sent", () => {
  it("editing the summary message of an answer never changes what later requests are sent", () => {
    const s = aSession(20);
    const edited = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    const twin = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    let reused = 0;
    for (let n = 21; n <= s.length; n += 2) {
      const mine = edited.prepare(aBody(s.slice(0, n)), "anthropic");
      const theirs = twin.prepare(aBody(s.slice(0, n)), "anthropic");
      const body = mine.outgoingBody() as { messages: Record<string, unknown>[] };
      expect(JSON.stringify(body), `request of ${n} messages`).toBe(JSON.stringify(theirs.outgoingBody()));
      if (mine.matched) reused++;
      // The host changes the summary message it was handed, as a client may change a body it sends.
      for (const m of body.messages) if (!s.includes(m)) m.content = "edited by the host";
    }
    expect(reused).toBeGreaterThan(3);
  });
});

describe("the digest cache", () => {
  it("is kept with the core's own SHA-256, and not with a host's hash unless asked for", () => {
    const msgs = aSession(6);
    const own = new Engine();
    const native = new Engine({}, { sha256: nodeHash });
    const asked = new Engine({}, { sha256: nodeHash, digestCacheMaxBytes: 1 << 20 });
    for (const e of [own, native, asked]) for (const m of msgs) e.digest(m, "anthropic");
    expect(own.stats().digests.entries).toBe(msgs.length);
    expect(native.stats().digests).toEqual({ entries: 0, bytes: 0 });
    expect(asked.stats().digests.entries).toBe(msgs.length);
    expect(msgs.map((m) => native.digest(m, "anthropic"))).toEqual(msgs.map((m) => own.digest(m, "anthropic")));
  });
});

describe("engine serving two dialects", () => {
  it("alternating dialects on one engine gives what one engine per dialect gives", () => {
    const msgs: unknown[] = [{ role: "user", content: "Fix the build." }];
    for (let i = 0; i < 30; i++) {
      msgs.push({ role: "assistant", content: `Step ${i}: running the build again.` });
      msgs.push({ role: "user", content: i % 2 ? `ok ${i}` : "E".repeat(900) });
    }
    const shared = new Engine({ thresholdTokens: 1500, keepRecent: 1 });
    const own = { anthropic: new Engine({ thresholdTokens: 1500, keepRecent: 1 }), "openai-chat": new Engine({ thresholdTokens: 1500, keepRecent: 1 }) };
    for (let n = 5; n <= msgs.length; n += 2) {
      for (const dialect of ["anthropic", "openai-chat"] as const) {
        for (const m of msgs.slice(0, n)) shared.digest(m, dialect === "anthropic" ? "openai-chat" : "anthropic");
        const a = shared.prepare(aBody(msgs.slice(0, n)), dialect);
        const b = own[dialect].prepare(aBody(msgs.slice(0, n)), dialect);
        expect(JSON.stringify(a.outgoingBody()), `${dialect} ${n}`).toBe(JSON.stringify(b.outgoingBody()));
      }
    }
  });
});
