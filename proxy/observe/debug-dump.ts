/**
 * `--debug-dir DIR`: one JSON file per compactable request, to see what the proxy did with it: the
 * incoming and outgoing messages and the body's other fields (`tools` as a count: tool schemas are
 * long and say nothing about the cliff). Never a header: keys travel in headers. Writing is not
 * awaited and a failure to write is only counted; the request never waits on the disk.
 */
import { mkdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Decision } from "../decision/index.js";

export class DebugDump {
  private seq = 0;
  failures = 0;
  written = 0;

  constructor(readonly dir: string) {
    // Each file holds a whole conversation: readable by its owner only.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** The file for one request (its name: time, a sequence number, the API, what happened). */
  write(d: Decision, action: string, status: number): void {
    const p = d.prepared;
    const fields: Record<string, unknown> = {};
    if (p !== null) {
      for (const [k, v] of Object.entries(p.body)) {
        if (k === p.dialect.messagesKey) continue;
        fields[k] = k === "tools" && Array.isArray(v) ? { count: v.length } : v;
      }
    }
    const record = {
      time: new Date().toISOString(),
      ...d.record,
      action,
      status,
      thresholdTokens: d.thresholdTokens,
      window: d.threshold === null ? null : { model: d.threshold.model, window: d.threshold.window, source: d.threshold.source },
      rung: p?.rung ?? 0,
      overBudget: p?.overBudget ?? false,
      fields,
      incoming: p?.messages ?? null,
      outgoing: p === null ? null : p.substituted,
    };
    const name = `${record.time.replace(/[:.]/g, "-")}-${String(++this.seq).padStart(6, "0")}-${d.record.api}-${action}.json`;
    writeFile(join(this.dir, name), JSON.stringify(record, null, 2) + "\n", { mode: 0o600 }).then(
      () => void this.written++,
      () => void this.failures++,
    );
  }
}
