/**
 * `--debug-dir DIR`: one JSON file per compactable request, to see what the proxy did with it: the
 * incoming and outgoing messages and the body's other fields (`tools` as a count: tool schemas are
 * long and say nothing about the cliff). Never a header: keys travel in headers. Writing is not
 * awaited and a failure to write is only counted; the request never waits on the disk.
 *
 * The folder is held to the archive's rule (node/archive-trust.ts): one another account owns or
 * can write to could hold names made in advance, or links, and so read every request. Each file
 * is created new (O_EXCL) and never through a link (O_NOFOLLOW).
 */
import { constants, mkdirSync } from "node:fs";
import { open } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Decision } from "../decision/index.js";
import { archiveTrust, currentUser, type Purpose } from "../../node/archive-trust.js";

const DEBUG: Purpose = { folder: "the --debug-dir folder", harm: "another user could read the requests written there", todo: "use a folder of your own" };

/** Writes a new file of the owner's (0600); fails when anything, a link included, is at `path`. */
export async function writeExclusive(path: string, text: string): Promise<void> {
  const f = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await f.writeFile(text);
  } finally {
    await f.close();
  }
}

export class DebugDump {
  private seq = 0;
  failures = 0;
  written = 0;

  readonly dir: string;

  constructor(dir: string, home: string = process.env.HOME || homedir()) {
    // Each file holds a whole conversation: readable by its owner only.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Checked once it exists: a folder another account made first is theirs, not ours.
    const trust = archiveTrust(dir, currentUser(home), DEBUG);
    if ("problem" in trust) throw new Error(trust.problem);
    this.dir = trust.dir;
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
    writeExclusive(join(this.dir, name), JSON.stringify(record, null, 2) + "\n").then(
      () => void this.written++,
      () => void this.failures++,
    );
  }
}
