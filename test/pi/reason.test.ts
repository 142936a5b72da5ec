/** Hosts without `event.reason` (Pi 0.73, OMP): the reason comes from the auto-compaction announcement. */
import { expect, it } from "vitest";
import extension from "../../pi-extension/index.js";

it("falls back to the announced reason, then to manual", async () => {
  process.env.PI_CLIFF_CONFIG = "/nonexistent/cliffcompaction.json";
  const handlers: Record<string, (e: any, c: any) => any> = {};
  extension({ on: (name: string, h: any) => (handlers[name] = h), registerCommand: () => {} } as any);
  const msg = (id: string, role: string, text: string) => ({ type: "message", id, message: { role, content: [{ type: "text", text }] } });
  const entries = [msg("u", "user", "task")];
  for (let i = 0; i < 5; i++) entries.push(msg(`a${i}`, "assistant", `step ${i}`), msg(`r${i}`, "toolResult", `result ${i}`));
  const ctx = { ui: { setStatus: () => {}, notify: () => {} } };
  handlers.auto_compaction_start({ reason: "overflow" }, ctx);
  const overflow = await handlers.session_before_compact({ branchEntries: entries, preparation: { tokensBefore: 10 } }, ctx);
  expect(overflow.compaction.details.reason).toBe("overflow");
  const manual = await handlers.session_before_compact({ branchEntries: entries, preparation: { tokensBefore: 10 } }, ctx);
  expect(manual.compaction.details.reason).toBe("manual");
  handlers.auto_compaction_start({}, ctx);
  handlers.auto_compaction_end({}, ctx);
  const afterEnd = await handlers.session_before_compact({ branchEntries: entries, preparation: { tokensBefore: 10 } }, ctx);
  expect(afterEnd.compaction.details.reason).toBe("manual");
  const explicit = await handlers.session_before_compact({ reason: "threshold", branchEntries: entries, preparation: { tokensBefore: 10 } }, ctx);
  expect(explicit.compaction.details.reason).toBe("threshold");
});
