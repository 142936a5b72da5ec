/**
 * The report as a new user meets it, on one session of each family (Claude Code, Codex, Gemini CLI,
 * OpenCode, Pi, mini-swe-agent: the corpus's when present, else the fixtures of the same shapes),
 * at 1,280 and 390 px with every cliff open: a headline sentence says what the session saved (or
 * why nothing was compacted), the kept messages read as a conversation with no raw JSON until a
 * click, the cost table's dollars and billed columns are on screen, and the page never grows
 * sideways.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const LAUNCH = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const CORPUS = process.env.CLIFF_CORPUS ?? fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
const FIX = fileURLToPath(new URL("../fixtures/sessions/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "cliff-families-"));
const env = { ...process.env, HOME: dir, XDG_CACHE_HOME: join(dir, "cache"), XDG_STATE_HOME: join(dir, "state"), XDG_CONFIG_HOME: join(dir, "config") };

/** Each family's session: the corpus's, else the fixture of its shape. */
const FAMILIES: [string, string, string][] = [
  ["Claude Code", "claudecode_task64-develop.jsonl", "claude-code-compacted.jsonl"],
  ["Codex", "codex_raze.jsonl", "codex-rollout.jsonl"],
  ["Gemini CLI", "gemini_axe.jsonl", "gemini-cli-session.jsonl"],
  ["OpenCode", "opencode_task66-session2.json", "opencode-export.json"],
  ["Pi", "pi_welpy.jsonl", "../pi-session-v3.jsonl"],
  ["mini-swe-agent", "minisweagent-marshmallow-1343.traj.json", "mini-swe-agent.traj.json"],
];
const sessions = FAMILIES.map(([family, corpus, fixture]): [string, string] => [family, existsSync(join(CORPUS, corpus)) ? join(CORPUS, corpus) : join(FIX, fixture)]);

let browser: Browser;
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH });
});
afterAll(async () => {
  await browser?.close();
});

const dataOf = (file: string): { cliffs: number; peak: number } => JSON.parse(readFileSync(file, "utf8").match(/<script type="application\/json" id="cliff-data">([^<]*)<\/script>/)![1]);

/** The report at the session's default threshold, and (when that makes no cliff) at half its peak. */
function reports(session: string, name: string): string[] {
  const run = (file: string, flags: string[]): string => {
    const r = spawnSync(process.execPath, ["dist/cli.mjs", "report", session, "-o", file, ...flags], { encoding: "utf8", timeout: 300_000, env });
    expect(r.status, r.stderr).toBe(0);
    return file;
  };
  const first = run(join(dir, `${name}.html`), []);
  const { cliffs, peak } = dataOf(first);
  return cliffs > 0 ? [first] : [first, run(join(dir, `${name}-cliffs.html`), ["--threshold", String(Math.max(500, Math.floor(peak / 2)))])];
}

describe("one session of each family, read in a browser", () => {
  it.each(sessions)("%s: a headline, the kept messages as a conversation, the bill on screen, no sideways page", async (family, session) => {
    const files = reports(session, family.replace(/\W+/g, "-"));
    expect(files.some((f) => dataOf(f).cliffs > 0), `${family}: a report with a cliff`).toBe(true);
    for (const file of files) {
      for (const width of [1280, 390]) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        try {
          await page.goto(pathToFileURL(file).href);
          await page.evaluate(() => (globalThis as any).document.querySelectorAll("details[id^=cliff-]").forEach((d: any) => d.setAttribute("open", "")));
          const at = `${family} at ${width}px (${file.split("/").pop()})`;
          const headline = await page.locator("#headline").innerText();
          expect(headline, at).toMatch(/^(cliffcompaction (costs \$[\d.,]+|bills [\d,]+ input tokens): [\d.]+% (less|more) than no compaction|The session never reached .* try --threshold \d+)/);
          for (const kept of await page.locator(".kept").allInnerTexts()) {
            expect(kept, at).toMatch(/(head|tail) \d+ · (user|assistant|tool|system)/);
            expect(kept, at).not.toMatch(/\{"(role|type|content|parts|tool_use_id)":/);
          }
          const billed = await page.locator("#billing tr").nth(1).locator("td").nth(2).boundingBox();
          expect(billed!.x + billed!.width, `${at}: the billed column on screen`).toBeLessThanOrEqual(width);
          expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth), at).toBeLessThanOrEqual(width);
        } finally {
          await page.close();
        }
      }
    }
  });
});
