/**
 * What a consumer downloads: `npm pack`, the tarball installed into a fresh project, then what
 * they would do with it. No Node binary, a small install, an ESM import and a CommonJS require
 * (each with its own entry and declarations), declarations that compile under strict settings and
 * three module resolutions, a CommonJS TypeScript project under node16, the CLI.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { piExtensionOptions } from "../../build-extension.mjs";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const NPM = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
const npm = (args: string[], cwd: string) => execFileSync(NPM[0], [...NPM.slice(1), ...args], { cwd, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "error" } });
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

let consumer: string;
let tarball: string;
let packedFiles: string[];
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** Every file under a folder, with its size; symlinks are listed, not followed. */
function walk(dir: string, out: { path: string; size: number; link: boolean }[] = []): typeof out {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) out.push({ path: p, size: 0, link: true });
    else if (st.isDirectory()) walk(p, out);
    else out.push({ path: p, size: st.size, link: false });
  }
  return out;
}

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), "cliff-pack-"));
  // npm test has just built dist/; packing must not build again.
  const packed = JSON.parse(npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], ROOT)) as { filename: string; files: { path: string }[] }[];
  tarball = join(dir, packed[0].filename);
  packedFiles = packed[0].files.map((f) => f.path);
  consumer = join(dir, "consumer");
  mkdirSync(consumer);
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  npm(["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], consumer);
}, 180_000);

describe("installing it before it is published, as the README's first install rows say", () => {
  it("the packed tarball installs as a command (npm install -g) that runs", () => {
    const prefix = mkdtempSync(join(tmpdir(), "cliff-global-"));
    npm(["install", "-g", "--prefix", prefix, "--no-audit", "--no-fund", "--prefer-offline", tarball], prefix);
    const r = spawnSync(join(prefix, "bin", "cliffcompaction"), ["--version"], { encoding: "utf8" });
    expect(r.stdout.trim()).toBe(VERSION);
  }, 120_000);

  it("the README shows the repository's install rows first and labels the registry's once published; its images render from the repository", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const install = readme.slice(readme.indexOf("## Install"), readme.indexOf("## Quick start"));
    const fromRepo = install.indexOf("| **a clone** |");
    const registry = install.indexOf("| once published on npm (404 until then) |");
    expect(fromRepo).toBeGreaterThan(0);
    expect(registry).toBeGreaterThan(fromRepo);
    for (const row of ["| **a packed tarball** |", "| **a git URL** |", "| **Pi, OMP** | `pi install /path/to/cliffcompaction`"]) expect(install.indexOf(row), row).toBeGreaterThan(fromRepo);
    expect(install.slice(0, registry)).not.toContain("npm:cliffcompaction`,");
    for (const page of ["README.md", "docs/cli.md", "docs/retention.md"]) {
      const text = readFileSync(join(ROOT, page), "utf8");
      expect(text, page).not.toMatch(/!\[[^\]]*\]\(https?:/);
    }
  });
});

describe("the published package", () => {
  it("ships no Node binary and no .bin/node link, ships the AgentParley zip, and is small", () => {
    const files = walk(join(consumer, "node_modules"));
    expect(files.filter((f) => /(^|\/)node$/.test(f.path))).toEqual([]);
    const bytes = files.reduce((n, f) => n + f.size, 0);
    console.log(`consumer node_modules: ${(bytes / 1e6).toFixed(2)} MB in ${files.length} files, packages: ${readdirSync(join(consumer, "node_modules")).filter((n) => !n.startsWith(".")).join(", ")}`);
    expect(bytes).toBeLessThan(12e6);
    const shipped = files.map((f) => f.path.slice(join(consumer, "node_modules", "cliffcompaction").length + 1)).filter((p) => !p.startsWith(".."));
    expect(shipped.some((p) => p.startsWith("cli/") || p.startsWith("core/") || p.startsWith("test/"))).toBe(false);
    // The AgentParley upload zip, the default build's only (a recall build left in dist/ stays out).
    expect(shipped.filter((p) => p.endsWith(".zip"))).toEqual([`dist/cliffcompaction-agentparley-${VERSION}.zip`]);
    expect(packedFiles.filter((p) => p.endsWith(".zip"))).toEqual([`dist/cliffcompaction-agentparley-${VERSION}.zip`]);
    expect(shipped).toContain("dist/types/core/public.d.ts");
  });

  it("ships the Pi/OMP extension as one built file, a fresh build of its sources, found through package.json's pi manifest", async () => {
    const installed = join(consumer, "node_modules", "cliffcompaction");
    expect(packedFiles.filter((p) => p.startsWith("pi-extension/"))).toEqual(["pi-extension/index.js"]);
    // npm pack and npm publish build it first: what the tarball holds is never an older build.
    expect(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.prepack).toBe("node build.mjs");
    const fresh = join(mkdtempSync(join(tmpdir(), "cliff-pack-ext-")), "index.js");
    await build(piExtensionOptions(fresh, VERSION));
    const shipped = readFileSync(join(installed, "pi-extension", "index.js"), "utf8");
    expect(shipped === readFileSync(fresh, "utf8"), "the packed pi-extension/index.js differs from a build of the sources").toBe(true);
    // It imports only what Node provides: Pi's own imports are types, gone after the build.
    const imports = [...shipped.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.every((m) => m.startsWith("node:"))).toBe(true);
    // Pi and OMP resolve the manifest's folder to its index.ts, else its index.js: here only the latter is.
    expect(JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).pi).toEqual({ extensions: ["./pi-extension"] });
  });

  it("imports as ESM, and requires on Node 20.19+", () => {
    const esm = spawnSync(process.execPath, ["--input-type=module", "-e", `
      import { compact, Engine, estimateTokens } from "cliffcompaction";
      import { summarize } from "cliffcompaction/plugin";
      const msgs = [{ role: "user", content: "task" }, ...Array.from({ length: 8 }, (_, i) => ({ role: i % 2 ? "user" : "assistant", content: "step " + i }))];
      const r = compact(msgs, "anthropic", { keepRecent: 1 });
      console.log(r.messages.length, estimateTokens(msgs) > 0, typeof new Engine().prepare, typeof summarize);`], { cwd: consumer, encoding: "utf8" });
    expect(esm.stderr).toBe("");
    expect(esm.stdout.trim()).toBe("4 true function function");
    const cjs = spawnSync(process.execPath, ["-e", `const m = require("cliffcompaction"); const p = require("cliffcompaction/plugin"); const x = require("cliffcompaction/proxy"); console.log(typeof m.compact, typeof p.summarize, typeof x.startProxy, require.resolve("cliffcompaction").endsWith("core.cjs"))`], { cwd: consumer, encoding: "utf8" });
    expect(cjs.stderr).toBe("");
    expect(cjs.stdout.trim()).toBe("function function function true");
  });

  it("its declarations compile under strict flags with bundler, node16 and nodenext resolution", () => {
    writeFileSync(join(consumer, "use.ts"), `
import { compact, Engine, estimateTokens, planCliff, type Config, type CompactResult } from "cliffcompaction";
import { summarize, type SummarizeReport } from "cliffcompaction/plugin";
const cfg: Partial<Config> = { keepRecent: 1 };
const r: CompactResult | null = compact([{ role: "user", content: "x" }], "anthropic", cfg);
const e = new Engine(cfg);
const ctx = e.prepare({ messages: [] }, "anthropic");
const plan = planCliff([], "plain", cfg, 100);
const s: string = summarize({ messages: [] });
const out: [number, boolean, number, string, SummarizeReport | null] = [estimateTokens({}), r === null, ctx.estTokensIn + plan.estTokens, s, null];
export default out;
`);
    for (const [module, resolution] of [["esnext", "bundler"], ["node16", "node16"], ["nodenext", "nodenext"]]) {
      const config = join(consumer, `tsconfig.${resolution}.json`);
      writeFileSync(config, JSON.stringify({
        compilerOptions: { target: "es2022", module, moduleResolution: resolution, strict: true, skipLibCheck: false, skipDefaultLibCheck: true, noUncheckedIndexedAccess: true, noPropertyAccessFromIndexSignature: true, exactOptionalPropertyTypes: true, noEmit: true, types: [] },
        files: ["use.ts"],
      }));
      const r = spawnSync(process.execPath, [TSC, "-p", config], { cwd: consumer, encoding: "utf8" });
      expect(r.stdout + r.stderr, resolution).toBe("");
      expect(r.status).toBe(0);
    }
    // Our declarations are checked in full (skipLibCheck off); TypeScript's own lib files are not ours to check.
  }, 240_000);

  it("a CommonJS TypeScript project (no \"type\": \"module\") under node16 compiles against the require entry and runs", () => {
    // A folder of its own below the consumer: its package.json says nothing of "type", so its .ts is CommonJS.
    const cjs = join(consumer, "cjs");
    mkdirSync(cjs, { recursive: true });
    writeFileSync(join(cjs, "package.json"), JSON.stringify({ name: "cjs-consumer", private: true }));
    writeFileSync(join(cjs, "use.ts"), `
import { compact, Engine, estimateTokens, type Config } from "cliffcompaction";
import { summarize, type SummarizeReport } from "cliffcompaction/plugin";
import { nodeSha256 } from "cliffcompaction/proxy";
const cfg: Partial<Config> = { keepRecent: 1 };
const msgs = [{ role: "user", content: "task" }, ...Array.from({ length: 8 }, (_, i) => ({ role: i % 2 ? "user" : "assistant", content: "step " + i }))];
const r = compact(msgs, "anthropic", cfg);
const report: SummarizeReport | null = null;
console.log(r === null ? 0 : r.messages.length, estimateTokens(msgs) > 0, typeof new Engine().prepare, typeof summarize, nodeSha256("").slice(0, 8), report);
`);
    writeFileSync(join(cjs, "tsconfig.json"), JSON.stringify({
      // Node's types installed (typeRoots stands for the consumer's own @types/node) but none listed: the proxy's declarations name them.
      compilerOptions: { target: "es2022", module: "node16", moduleResolution: "node16", strict: true, skipLibCheck: false, skipDefaultLibCheck: true, outDir: "out", types: [], typeRoots: [join(ROOT, "node_modules", "@types")] },
      files: ["use.ts"],
    }));
    const tsc = spawnSync(process.execPath, [TSC, "-p", join(cjs, "tsconfig.json")], { cwd: cjs, encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
    const out = readFileSync(join(cjs, "out", "use.js"), "utf8");
    expect(out).toContain('require("cliffcompaction")');
    const run = spawnSync(process.execPath, [join(cjs, "out", "use.js")], { cwd: cjs, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("4 true function function e3b0c442 null");
  });

  it("cliffcompaction/proxy without @types/node: tsc names the missing package at the top of the entry's declarations, and docs/library.md says to install it", () => {
    const dir = join(consumer, "no-node-types");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "use.ts"), `import { startProxy, nodeSha256, type ProxyOptions } from "cliffcompaction/proxy";\nexport const use: [typeof startProxy, typeof nodeSha256, ProxyOptions | null] = [startProxy, nodeSha256, null];\n`);
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
      compilerOptions: { target: "es2022", module: "esnext", moduleResolution: "bundler", strict: true, skipLibCheck: false, skipDefaultLibCheck: true, noEmit: true, types: [] },
      files: ["use.ts"],
    }));
    expect(lstatSync(join(consumer, "node_modules", "@types"), { throwIfNoEntry: false })).toBeUndefined();
    const r = spawnSync(process.execPath, [TSC, "-p", join(dir, "tsconfig.json")], { cwd: dir, encoding: "utf8" });
    expect(r.status).not.toBe(0);
    const errors = r.stdout.split("\n").filter((l) => l.includes("error TS"));
    expect(errors.filter((l) => l.includes("TS2688"))).toEqual(["../node_modules/cliffcompaction/dist/types/proxy/index.d.ts(1,23): error TS2688: Cannot find type definition file for 'node'."]);
    expect(readFileSync(join(ROOT, "docs", "library.md"), "utf8")).toContain("`cliffcompaction/proxy` in TypeScript needs Node's types (`npm install -D @types/node`)");
  });

  it("npx cliffcompaction --help runs from the consumer; --sandbox quickjs says how to get QuickJS", () => {
    const help = spawnSync(join(consumer, "node_modules", ".bin", "cliffcompaction"), ["--help"], { cwd: consumer, encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("cliffcompaction compact");
    writeFileSync(join(consumer, "s.json"), JSON.stringify({ messages: [{ role: "user", content: "t" }, { role: "assistant", content: "a" }, { role: "user", content: "b" }, { role: "assistant", content: "c" }] }));
    const qjs = spawnSync(join(consumer, "node_modules", ".bin", "cliffcompaction"), ["compact", "s.json", "--host", "agentparley", "--sandbox", "quickjs"], { cwd: consumer, encoding: "utf8" });
    expect(qjs.status).toBe(2);
    expect(qjs.stderr.trim()).toBe("cliffcompaction: the QuickJS sandbox needs the optional package quickjs-emscripten: npm install quickjs-emscripten (next to cliffcompaction)");
  });
});
