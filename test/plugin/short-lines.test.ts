/**
 * 10 MB of short lines in dropped results: both builds return a summary under a 64 MB QuickJS
 * memory limit (the recall build's tail focus searches every dropped result; splitting them into
 * a string per line ran out of memory and returned ""). `npm run test:deep` runs the first size
 * found, 40 MB under 256 MB: the same ratio of input to memory.
 */
import { describe, expect, it } from "vitest";
import { getQuickJS } from "quickjs-emscripten";
import { bundleSource, BUNDLE_PATH, REFERENCE_BUNDLE_PATH } from "../helpers/sandboxes.js";
import { DEEP } from "../helpers/scale.js";

const MB = DEEP ? 40 : 10;
const LIMIT_MB = MB * 6.4;

function shortLines(mb: number): string {
  const line = "1234\n";
  const result = line.repeat(Math.ceil((mb * 1e6) / 2 / line.length));
  const msgs: unknown[] = [{ role: "user", content: "task" }];
  for (let i = 0; i < 2; i++) msgs.push({ role: "assistant", content: `[bash] {"command":"run src/parser_${i}.ts"}` }, { role: "tool", content: result });
  for (let i = 0; i < 6; i++) msgs.push({ role: "assistant", content: `look at src/parser_${i}.ts line 1234` }, { role: "tool", content: "ok" });
  return JSON.stringify({ messages: msgs, focus: "done parser", threshold: 100_000 });
}

// Both builds npm test makes: the default (recall) and the reference profile's.
describe.each([["default (recall)", () => BUNDLE_PATH.pathname], ["reference", () => REFERENCE_BUNDLE_PATH.pathname]] as const)(`${MB} MB of short lines, the %s build`, (_name, bundle) => {
  it(`returns a non-empty summary in QuickJS under a ${LIMIT_MB} MB memory limit`, async () => {
    const json = shortLines(MB);
    expect(json.length).toBeGreaterThan(MB * 1e6);
    const qjs = (await getQuickJS()).newContext();
    try {
      qjs.runtime.setMemoryLimit(LIMIT_MB * 1024 * 1024);
      qjs.unwrapResult(qjs.evalCode(bundleSource(bundle()))).dispose();
      const arg = qjs.newString(json);
      qjs.setProp(qjs.global, "__arg", arg);
      arg.dispose();
      const h = qjs.unwrapResult(qjs.evalCode("globalThis.compaction.summarize(JSON.parse(__arg))"));
      const summary = qjs.getString(h);
      h.dispose();
      expect(summary).toContain("src/parser_0.ts");
      expect(summary).toContain("1234");
    } finally {
      qjs.dispose();
    }
  }, 240_000);
});
