/** Loads the built plugin bundle into bare sandboxes and exposes summarize(context) → string. */
import { readFileSync } from "node:fs";
import vm from "node:vm";
import { getQuickJS } from "quickjs-emscripten";

/** The default build: the recall profile (`npm run build`). */
export const BUNDLE_PATH = new URL("../../dist/cliffcompaction.js", import.meta.url);
/** The plugin built with the reference profile (`npm run build:reference`; `npm test` makes it). */
export const REFERENCE_BUNDLE_PATH = new URL("../../dist/cliffcompaction-reference.js", import.meta.url);

export interface Sandbox {
  name: string;
  /** Calls globalThis.compaction.summarize with a JSON-able context (or `undefined`). */
  summarize(context: unknown): string;
  /** Calls summarize with the object itself (node:vm only; QuickJS always goes through JSON). */
  summarizeObject?(context: unknown): string;
  /** node:vm only: JSON parsed by the sandbox's own JSON, so the objects are the sandbox's (as a platform hands them). */
  parseInside?(json: string): unknown;
  /** Evaluates an expression in the sandbox and returns its JSON. */
  evalJson(expr: string): unknown;
}

export function bundleSource(path: URL | string = BUNDLE_PATH): string {
  return readFileSync(path, "utf8");
}

/** A bare V8 context: only ECMAScript built-ins, no require/process/Buffer/TextEncoder/atob/timers. */
export function vmSandbox(prelude = "", bundle: URL | string = BUNDLE_PATH): Sandbox {
  const context = vm.createContext({});
  vm.runInContext(prelude + "\n" + bundleSource(bundle), context, { filename: "cliffcompaction.js" });
  const call = vm.runInContext("(json) => globalThis.compaction.summarize(json === undefined ? undefined : JSON.parse(json))", context);
  return {
    name: "node:vm",
    summarize: (c) => call(c === undefined ? undefined : JSON.stringify(c)),
    summarizeObject: vm.runInContext("(c) => globalThis.compaction.summarize(c)", context),
    parseInside: vm.runInContext("(json) => JSON.parse(json)", context),
    evalJson: (expr) => JSON.parse(vm.runInContext(`JSON.stringify(${expr})`, context)),
  };
}

export async function quickjsSandbox(prelude = "", bundle: URL | string = BUNDLE_PATH): Promise<Sandbox> {
  const QuickJS = await getQuickJS();
  const ctx = QuickJS.newContext();
  ctx.runtime.setMemoryLimit(1024 * 1024 * 1024);
  ctx.unwrapResult(ctx.evalCode(prelude + "\n" + bundleSource(bundle), "cliffcompaction.js")).dispose();
  const run = (code: string): string => {
    const handle = ctx.unwrapResult(ctx.evalCode(code));
    const out = ctx.getString(handle);
    handle.dispose();
    return out;
  };
  return {
    name: "quickjs",
    summarize(c) {
      const arg = ctx.newString(c === undefined ? "" : JSON.stringify(c));
      ctx.setProp(ctx.global, "__arg", arg);
      arg.dispose();
      return run(`globalThis.compaction.summarize(${c === undefined ? "undefined" : "JSON.parse(__arg)"})`);
    },
    evalJson: (expr) => JSON.parse(run(`JSON.stringify(${expr})`)),
  };
}
