/**
 * The recall profile reaches its rules through every host's settings: the CLI's --profile flag,
 * CLIFF_PROFILE, a config file's "profile", a rule's own flag alone; the Pi extension's config
 * file; the proxy started from serve's flags.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "../../cli/args.js";
import { configOf, settingLayers } from "../../cli/settings.js";
import { loadConfig } from "../../pi-extension/config.js";
import { compactSession } from "../../pi-extension/hook.js";
import { liveFromEntries } from "../../core/pi/session.js";
import { estimateTokens } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { filler, numberedLines, session, type Step } from "../helpers/tool-steps.js";

const CLI = new URL("../../dist/cli.mjs", import.meta.url).pathname;
const NEW_TEXT = numberedLines("export const recallMarker", 20);
const EDIT: Step = { name: "Edit", args: { file_path: "src/marker.ts", old_string: "a", new_string: NEW_TEXT }, result: "ok" };
const EDIT_LINES = `[Edit] src/marker.ts\n${NEW_TEXT}`;
const steps = [EDIT, filler(1), filler(2), filler(3)];

let dir = "";
let file = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cliff-recall-hosts-"));
  file = join(dir, "session.json");
  writeFileSync(file, JSON.stringify({ model: "m", max_tokens: 10, messages: session("anthropic", steps) }));
});

function summary(env: Record<string, string>, ...args: string[]): string {
  const clean: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  for (const k of Object.keys(clean)) if (k.startsWith("CLIFF_")) delete clean[k];
  const r = spawnSync(process.execPath, [CLI, "compact", file, "--json", ...args], { encoding: "utf8", env: { ...clean, ...env } });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout).summary as string;
}

describe("the CLI", () => {
  it("recall by default; --profile reference, CLIFF_PROFILE, a config file's profile and a rule's own flag reach the rule; an explicit key beats the profile", () => {
    expect(summary({})).toContain(EDIT_LINES);
    expect(summary({}, "--profile", "recall")).toContain(EDIT_LINES);
    expect(summary({}, "--profile", "reference")).not.toContain(EDIT_LINES);
    expect(summary({ CLIFF_PROFILE: "reference" })).not.toContain(EDIT_LINES);
    const cfg = join(dir, "reference.json");
    writeFileSync(cfg, JSON.stringify({ profile: "reference" }));
    expect(summary({}, "--config", cfg)).not.toContain(EDIT_LINES);
    expect(summary({}, "--config", cfg, "--profile", "recall")).toContain(EDIT_LINES);
    expect(summary({}, "--profile", "reference", "--edit-max-chars", "5000")).toContain(EDIT_LINES);
    expect(summary({ CLIFF_PROFILE: "reference", CLIFF_EDIT_MAX_CHARS: "5000" })).toContain(EDIT_LINES);
    expect(summary({}, "--edit-max-chars", "0")).not.toContain(EDIT_LINES);
    expect(summary({}, "--keep-files", "a.md,b.md")).toContain(EDIT_LINES);
  });
});

describe("the Pi extension", () => {
  it("recall by default; a config file's profile reaches the rule; CLIFF_* over it turns the rule on again", () => {
    const cfg = join(dir, "pi.json");
    writeFileSync(cfg, JSON.stringify({ profile: "reference" }));
    const msgs = session("pi", steps);
    const entries = msgs.map((message, i) => ({ type: "message", id: `e${i}`, parentId: i ? `e${i - 1}` : null, message }));
    const live = liveFromEntries(entries);
    const defaults = loadConfig({ PI_CLIFF_CONFIG: join(dir, "absent.json") }, dir, "pi");
    expect(defaults.config.profile).toBe("recall");
    expect(compactSession(live, defaults.config, { reason: "manual" })!.summary).toContain(EDIT_LINES);
    const loaded = loadConfig({ PI_CLIFF_CONFIG: cfg }, dir, "pi");
    expect(loaded.problems).toEqual([]);
    expect(compactSession(live, loaded.config, { reason: "manual" })!.summary).not.toContain(EDIT_LINES);
    const on = loadConfig({ PI_CLIFF_CONFIG: cfg, CLIFF_EDIT_MAX_CHARS: "5000" }, dir, "pi");
    expect(compactSession(live, on.config, { reason: "manual" })!.summary).toContain(EDIT_LINES);
  });
});

describe("the proxy", () => {
  const proxyBody = { model: "m", max_tokens: 10, messages: session("anthropic", [...steps, { ...filler(4), result: "z".repeat(2000) }]) };
  let mock: MockUpstream;
  let proxy: RunningProxy;
  beforeAll(async () => {
    mock = await mockUpstream();
    // Crossed only by the last result, so the one cliff summarises the edit.
    const threshold = estimateTokens(proxyBody) - 200;
    const p = parseArgs(["serve", "--threshold", String(threshold), "--keep-recent", "1"]);
    proxy = await startProxy({ config: configOf(settingLayers(p.values, {})), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" } });
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });

  it("serve compacts with the rule by default (the recall profile)", async () => {
    const res = await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "x-api-key": "k", "content-type": "application/json" }, body: JSON.stringify(proxyBody) });
    expect(res.status).toBe(200);
    const sent = JSON.parse(mock.received[mock.received.length - 1].body.toString());
    expect(JSON.stringify(sent.messages)).toContain(JSON.stringify(EDIT_LINES).slice(1, -1));
  });
});
