/**
 * Round six, case 9: listings tested every line of dotted tokens (`v1.a.a.a…!`, version lists,
 * minified code) against three backtracking patterns: 5 MB of such output cost 15–21× the
 * reference build in QuickJS. Now a line whose characters cannot open a path the patterns would
 * take is settled without them. Counted as the listing patterns' executions.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { compact, resolveConfig } from "../../../core/index.js";

/** Dropped results of dotted-token lines: `results` of them, each of `lines` lines. */
function dotted(results: number, lines: number): unknown[] {
  const shapes = [(k: number) => `v1${".a".repeat(60 + (k % 40))}!`, (k: number) => `1.2.${k} 1.3.${k} 2.0.${k} 2.1.${k}-rc.1 3.0.0.${k}`, (k: number) => `a.b(c.d,e.f[${k}]);g.h=i.j.k;l.m.n(o.p)`];
  const msgs: unknown[] = [{ role: "user", content: "task" }];
  for (let i = 0; i < results; i++) {
    const text = Array.from({ length: lines }, (_, k) => shapes[(i + k) % 3](k)).join("\n");
    msgs.push({ role: "assistant", content: `[bash] {"command":"npm ls ${i}"}` }, { role: "tool", content: text });
  }
  msgs.push({ role: "assistant", content: "done" }, { role: "tool", content: "ok" });
  return msgs;
}

describe("round six: listings on dotted tokens", () => {
  afterEach(() => vi.restoreAllMocks());

  it("9. a dotted-token line is judged without the listing patterns", () => {
    const own = RegExp.prototype.exec;
    let runs = 0;
    vi.spyOn(RegExp.prototype, "exec").mockImplementation(function (this: RegExp, s: string) {
      // The listing patterns: each holds a path's character class.
      if (this.source.indexOf("[\\w@+.-]") >= 0) runs++;
      return own.call(this, s);
    });
    const messages = dotted(300, 100);
    const r = compact(messages, "plain", resolveConfig({ profile: "recall", thresholdTokens: 1000, keepRecent: 1 }));
    vi.restoreAllMocks();
    expect(r).not.toBeNull();
    // Every line read was three pattern runs: 300 results × up to 81 lines × 3 = 72,900.
    expect(runs).toBeLessThan(300);
    expect(r!.summaryText).not.toContain("result (paths): ");
  });
});
