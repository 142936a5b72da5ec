/**
 * One read – commands – read session of a real Claude Code through `cliffcompaction run`, against
 * the scripted model: the model reads a file of about 3.7 KB, runs a few commands whose output
 * carries the history across the threshold, reads the file again (Claude Code 2.1.1xx answers that
 * second read with a stub), then ends. Used by the opt-in agents suite and, with `capture`, to make
 * the fixtures in test/fixtures/read-stubs (see capture-read-stubs.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runChild, type Finished } from "../helpers/child.js";
import { scriptModel, type Recorded, type Step } from "./script-model.js";

/** The file the session reads twice: numbered lines of made-up settings, each with a distinct token. */
export function notesText(): string {
  const lines: string[] = ["# Release notes for the build farm (test fixture)"];
  for (let i = 1; i <= 74; i++) lines.push(`setting-${String(i).padStart(2, "0")} = value-${(i * 7919) % 10007} # marker QX${1000 + i * 37}`);
  lines.push("The deploy key lives in vault path secret/build/farm-42; rotate it every 30 days.");
  return lines.join("\n") + "\n";
}

export const STUB_PROMPT = "Read notes.txt, run the three commands you are given, read notes.txt again, then say ALL DONE.";

/** The script: read, three commands with long outputs, read again. */
export function readCommandsRead(file: string, commands = ["seq 1 5000", "seq 5001 9000", "seq 9001 13000"]): Step[] {
  return [
    { name: "Read", input: { file_path: file } },
    ...commands.map((command) => ({ name: "Bash", input: { command, description: "print numbers" } })),
    { name: "Read", input: { file_path: file } },
  ];
}

export interface StubRun {
  finished: Finished;
  /** Requests that reached the model (compacted by the proxy where it cliffed). */
  seen: Recorded[];
  /** The proxy's --debug-dir records: what the agent sent and what went on, in order. */
  debug: any[];
  file: string;
  work: string;
}

export interface StubRunOptions {
  /** The claude executable. */
  claude: string;
  profile: "reference" | "recall";
  threshold: number;
  /** Flags for `cliffcompaction run` besides these (or, with `direct`, none: the agent talks to the model itself). */
  flags?: string[];
  direct?: boolean;
  /** The model's script, given the file's absolute path (default read – commands – read). */
  steps?: (file: string) => Step[];
  prompt?: string;
  /** The working folder (default a new one under the temporary directory). */
  work?: string;
  timeoutMs?: number;
}

export async function stubRun(o: StubRunOptions): Promise<StubRun> {
  const work = o.work ?? mkdtempSync(join(tmpdir(), "cliff-read-stub-"));
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const file = join(work, "notes.txt");
  writeFileSync(file, notesText());
  const home = mkdtempSync(join(tmpdir(), "cliff-read-stub-home-"));
  const debugDir = join(home, "debug");
  const model = await scriptModel((o.steps ?? readCommandsRead)(file));
  const env: NodeJS.ProcessEnv = {
    ...process.env, HOME: home, IS_SANDBOX: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: o.direct === true ? model.url : "",
  };
  const agent = [o.claude, "-p", o.prompt ?? STUB_PROMPT, "--allowedTools", "Read,Bash,Edit,Write", "--output-format", "text"];
  const cli = join(process.cwd(), "dist", "cli.mjs");
  const [command, ...args] = o.direct === true ? agent
    : [process.execPath, cli, "run", "--port", "0", "--anthropic-upstream", model.url, "--threshold", String(o.threshold), "--profile", o.profile, "--debug-dir", debugDir, ...(o.flags ?? []), "--", ...agent];
  const finished = await runChild(command, args, work, env, o.timeoutMs ?? 180_000);
  model.close();
  // The dump's writes are not awaited by the proxy: give the last one a moment.
  await new Promise((r) => setTimeout(r, 300));
  let debug: any[] = [];
  try {
    debug = readdirSync(debugDir).sort().map((n) => JSON.parse(readFileSync(join(debugDir, n), "utf8")));
  } catch {
    // a direct run has no proxy
  }
  rmSync(home, { recursive: true, force: true });
  return { finished, seen: model.seen, debug, file, work };
}
