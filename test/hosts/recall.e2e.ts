/**
 * Opt-in (`npm run test:hosts`): the real Pi CLI (print mode) and OMP under Bun, with the package as
 * a consumer installs it, recall through the extension's `cliff_recall` after two compactions. The
 * scripted model (Anthropic Messages, its request rules enforced) runs shell calls until two
 * different summaries have reached it, then recalls the oldest ref the first one named, a text the
 * second compaction took out of the context: the tool result the host sends back must be that text
 * byte for byte. Then a search for one of its lines, and a ref no text has (a tool error); the host
 * must exit 0 with the final answer.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runChild } from "../helpers/child.js";
import { agentFolder, BUN, installedPackage, installOmp, nodeRunsPi, OMP, ourCompactions, PI } from "./host-setup.js";
import { piRecallModel, refOf, type PiRecall } from "./recall-script.js";

const PROMPT = "Print numbers with seq several times, then say ALL DONE.";
const SUMMARISING = /You are a context summarization assistant|context checkpoint summary|summary of this conversation branch/;

interface Run {
  code: number | null;
  out: string;
  err: string;
  s: PiRecall;
  compactions: Record<string, any>[];
}

/** One session of `command` (given the extension's path) against the script, the extension keeping one turn. */
async function session(name: string, command: string, args: (ext: string) => string[], window: number, reserve: number, env: (dir: string) => NodeJS.ProcessEnv): Promise<Run> {
  const pkg = installedPackage();
  const s = await piRecallModel();
  const { dir, agentDir, cwd } = agentFolder(s.model.url, window, reserve);
  writeFileSync(join(agentDir, "cliffcompaction.json"), JSON.stringify({ keepRecent: 1 }));
  const r = await runChild(command, args(join(pkg, "pi-extension", "index.js")), cwd, { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", ...env(dir) }, 300_000);
  await s.model.close();
  const compactions = ourCompactions(agentDir);
  const b = s.byRef;
  console.log(
    `${name} recall: exit ${r.code}, ${s.model.seen.length} model requests (${s.model.refused.length} refused), ${s.shellCalls} shell calls, ` +
      `${compactions.length} compactions by cliffcompaction, ${s.summaries.length} distinct summaries seen` +
      (b === undefined ? "" : `; recalled through ${s.via} ref ${b.input.ref} after ${b.afterSummaries} summaries (named by the current one: ${b.namedByCurrentSummary}, whole in the request: ${b.inRequest}): ` +
        `${Buffer.byteLength(b.expected)} bytes expected, ${b.got === undefined ? "nothing" : Buffer.byteLength(b.got.text) + " bytes"} received, identical ${b.got?.text === b.expected}`) +
      `; search ${JSON.stringify(s.search?.input.search)}: ${s.search?.got?.text.split("\n").length ?? 0} lines; unknown ref ${s.unknown?.input.ref}: error ${s.unknown?.got?.isError}` +
      `; agent said ${JSON.stringify(r.out.trim().slice(-100))}\nsearch answer: ${s.search?.got?.text}`,
  );
  if (r.code !== 0 || s.model.refused.length > 0 || s.byRef === undefined) console.log(`${name} stderr: ${r.err.slice(-3000)}\nrefused: ${s.model.refused.join("\n")}\ntools offered last: ${s.model.seen.at(-1)?.tools.join(", ")}\nrefs named by each summary: ${s.summaries.map((x) => x.refs.length).join(", ")}`);
  return { code: r.code, out: r.out, err: r.err, s, compactions };
}

function expectRecalled({ code, out, err, s, compactions }: Run): void {
  expect(s.model.refused).toEqual([]);
  expect(s.model.seen.filter((x) => SUMMARISING.test(JSON.stringify(x.body)))).toEqual([]);
  expect(compactions.length).toBeGreaterThanOrEqual(2);
  expect(s.summaries.length).toBeGreaterThanOrEqual(2);
  // The ref came from the first summary; the second compaction had taken it out of the context.
  // The tool is declared to the model (OMP would otherwise offer it only as an xd:// device).
  expect(s.via).toMatch(/^_?cliff_recall$/);
  const b = s.byRef!;
  expect(b, "a recall by ref").toBeDefined();
  expect(s.summaries[0].refs).toContain(b.input.ref);
  expect(String(compactions[0].summary)).toContain(`ref ${b.input.ref}`);
  expect(b.afterSummaries).toBeGreaterThanOrEqual(2);
  expect(b.namedByCurrentSummary).toBe(false);
  expect(b.inRequest).toBe(false);
  expect(refOf(b.expected)).toBe(b.input.ref);
  expect(b.got?.isError).toBe(false);
  expect(b.got?.text === b.expected, `recalled ${b.got?.text.length} chars, expected ${b.expected.length}`).toBe(true);
  // The search finds the line in that text alone (not the call that asks), named by its ref and line number.
  expect(s.search?.got?.isError).toBe(false);
  expect(s.search?.got?.text).toMatch(/^1 matching line /);
  expect(s.search?.got?.text).toContain(`${b.input.ref}:7: ${s.search!.line}`);
  expect(s.unknown?.got?.isError).toBe(true);
  expect(s.unknown?.got?.text).toContain(`No text with ref ${s.unknown!.input.ref}`);
  expect(code, err.slice(-2000)).toBe(0);
  expect(out).toContain(s.final!);
  expect(s.final).toBe(`ALL DONE: recalled ${b.input.ref}, ${b.expected.length} chars, byte for byte`);
}

describe("cliff_recall through the installed extension, in the real hosts", () => {
  it("the pi CLI in print mode: a ref two compactions back comes back byte for byte, a search finds it, an unknown ref is a tool error", async () => {
    expect(nodeRunsPi(), `Pi 1.6 needs Node ≥ 22.19, this is ${process.version}: run npm run test:hosts`).toBe(true);
    const args = (ext: string): string[] => [PI, "-p", PROMPT, "--provider", "mock", "--model", "mock-1", "-e", ext];
    expectRecalled(await session("pi", process.execPath, args, 24_000, 8_000, () => ({})));
  });

  it("OMP under Bun", async () => {
    installOmp();
    expect(spawnSync(BUN, ["--version"], { encoding: "utf8" }).status).toBe(0);
    const args = (ext: string): string[] => [OMP, "-p", PROMPT, "--provider", "mock", "--model", "mock-1", "-e", ext];
    // OMP's own system prompt and tools take about 15k tokens.
    expectRecalled(await session("omp", BUN, args, 48_000, 8_000, (dir) => ({ HOME: dir })));
  });
});
