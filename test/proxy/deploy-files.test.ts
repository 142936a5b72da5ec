/**
 * The files under deploy/ a team copies: every metric an alert rule names is one a proxy exposes,
 * and the HAProxy configuration checks the health endpoint the proxy answers.
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { parsePrometheus } from "../helpers/prometheus.js";

const deploy = (f: string): string => readFileSync(new URL(`../../deploy/${f}`, import.meta.url), "utf8");
let proxy: RunningProxy | undefined;
afterAll(async () => {
  await proxy?.close();
});

describe("deploy/", () => {
  it("every metric the alert rules name is one /_cliff/metrics exposes", async () => {
    proxy = await startProxy({ config: resolveConfig({}), port: 0 });
    // Declared (HELP and TYPE) even before any sample: a counter by API has none until a request.
    const exposition = parsePrometheus(await (await fetch(proxy.url + "/_cliff/metrics")).text());
    const rules = deploy("cliffcompaction.rules.yml");
    const named = [...new Set([...rules.matchAll(/\bcliffcompaction_[a-z_]+/g)].map((m) => m[0]))];
    const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
    expect(alerts).toEqual(["CliffcompactionReplicaDown", "CliffcompactionFallbacks", "CliffcompactionThinkingDropped", "CliffcompactionRefusals", "CliffcompactionThrash", "CliffcompactionUpstreamErrors"]);
    expect(named).toEqual(expect.arrayContaining(["cliffcompaction_fallbacks_total", "cliffcompaction_thinking_blocks_dropped_total"]));
    // Every alert but the scrape's own (`up`) stands on one of our metrics.
    for (const block of rules.split("- alert: ").slice(2)) expect(block, block.split("\n")[0]).toMatch(/\bcliffcompaction_[a-z_]+/);
    for (const name of named) expect(exposition.type(name), name).toBe("counter");
  });

  it("HAProxy checks /_cliff/health and Prometheus scrapes /_cliff/metrics with the token file", () => {
    expect(deploy("haproxy.cfg")).toMatch(/http-check send meth GET uri \/_cliff\/health/);
    const prom = deploy("prometheus.yml");
    expect(prom).toMatch(/metrics_path: \/_cliff\/metrics/);
    expect(prom).toMatch(/credentials_file: admin-token/);
  });
});
