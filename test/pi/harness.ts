/**
 * A real Pi 1.6 agent session, offline: the faux model, in-memory settings, temp dirs, and our
 * extension, built afresh from its sources as the package ships it, loaded through Pi's own loader
 * (the `pi -e` path).
 */
import { buildSync } from "esbuild";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage, fauxProvider, fauxToolCall } from "@earendil-works/pi-ai";
import {
  convertToLlm,
  createAgentSession,
  DefaultResourceLoader,
  ModelRuntime,
  SessionManager,
  SettingsManager,
} from "@earendil-works/pi-coding-agent";
import { piExtensionOptions } from "../../build-extension.mjs";

/** The file the package ships (pi-extension/index.js), built from the sources now, in a temporary folder. */
export const EXTENSION = freshExtension();

function freshExtension(): string {
  const file = join(mkdtempSync(join(tmpdir(), "cliff-pi-extension-")), "index.js");
  const version = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  buildSync(piExtensionOptions(file, version));
  return file;
}

export interface Harness {
  session: Awaited<ReturnType<typeof createAgentSession>>["session"];
  faux: ReturnType<typeof fauxProvider>;
  errors: unknown[];
  notices: { message: string; type?: string }[];
  statuses: Record<string, string | undefined>;
  dir: string;
  branch(): any[];
  lastCompaction(): any;
  context(): any[];
  dispose(): void;
}

export interface HarnessOptions {
  contextWindow?: number;
  reserveTokens?: number;
  keepRecentTokens?: number;
  /** Contents of cliffcompaction.json in the agent dir (undefined: no file). */
  config?: unknown;
  configText?: string;
  extensions?: string[];
  /** Inline extension factories (loaded after `extensions`). */
  factories?: ((pi: any) => unknown)[];
  sessionFile?: string;
  /** The tool allowlist, as `pi --tools` takes it (default: only the test's own "big"). */
  tools?: string[];
}

/** Fresh temp folders for one Pi session: never ~/.pi. */
export function piDirs(prefix = "cliff-pi-"): { dir: string; agentDir: string; cwd: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const agentDir = join(dir, "agent");
  const cwd = join(dir, "cwd");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { dir, agentDir, cwd };
}

export async function makeHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const { dir, agentDir, cwd } = piDirs();
  if (opts.configText !== undefined) writeFileSync(join(agentDir, "cliffcompaction.json"), opts.configText);
  else if (opts.config !== undefined) writeFileSync(join(agentDir, "cliffcompaction.json"), JSON.stringify(opts.config));
  process.env.PI_CLIFF_CONFIG = join(agentDir, "cliffcompaction.json");
  // The extension's archive (on in the default profile) goes under the agent folder: a temporary one, never ~/.pi.
  process.env.PI_CODING_AGENT_DIR ??= agentDir;

  const faux = fauxProvider({ provider: "faux", api: "faux", models: [{ id: "faux-1", contextWindow: opts.contextWindow ?? 200_000, maxTokens: 1000 }] });
  const modelRuntime = await ModelRuntime.create({ authPath: join(dir, "auth.json"), modelsPath: null, refreshOnCreate: false });
  modelRuntime.registerNativeProvider(faux.provider);
  const settingsManager = SettingsManager.inMemory({
    compaction: { enabled: true, reserveTokens: opts.reserveTokens ?? 16_384, keepRecentTokens: opts.keepRecentTokens ?? 50 },
    retry: { enabled: false },
  } as never);
  const resourceLoader = new DefaultResourceLoader({
    cwd, agentDir, settingsManager, noExtensions: true, additionalExtensionPaths: opts.extensions ?? [EXTENSION], extensionFactories: opts.factories ?? [],
    noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true, systemPrompt: "You are a test agent.",
  } as never);
  await resourceLoader.reload();
  const loadErrors = resourceLoader.getExtensions().errors;
  if (loadErrors.length > 0) throw new Error("extension failed to load: " + JSON.stringify(loadErrors));
  const sessionManager = opts.sessionFile ? SessionManager.open(opts.sessionFile, join(dir, "sessions"), cwd) : SessionManager.inMemory(cwd);
  const bigTool = {
    name: "big",
    label: "big",
    description: "returns n lines of output",
    parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    execute: async (_id: string, params: { n: number }) => ({
      content: [{ type: "text", text: Array.from({ length: params.n }, (_, i) => `line ${i} of output for request ${params.n}`).join("\n") }],
      details: {},
    }),
  };
  const { session } = await createAgentSession({
    cwd, agentDir, modelRuntime, model: faux.getModel(), thinkingLevel: "off", resourceLoader, settingsManager, sessionManager,
    customTools: [bigTool], tools: opts.tools ?? ["big"],
  } as never);
  const errors: unknown[] = [];
  const notices: { message: string; type?: string }[] = [];
  const statuses: Record<string, string | undefined> = {};
  const uiContext = {
    notify: (message: string, type?: string) => notices.push({ message, type }),
    setStatus: (key: string, text: string | undefined) => {
      statuses[key] = text;
    },
    select: async () => undefined,
    confirm: async () => false,
    input: async () => undefined,
    onTerminalInput: () => () => {},
    setWidget: () => {},
    setFooter: () => {},
    setHeader: () => {},
    setTitle: () => {},
    custom: async () => undefined,
    editor: async () => undefined,
    setEditorText: () => {},
    getEditorText: () => "",
  };
  await session.bindExtensions({ uiContext, mode: "print", onError: (e: unknown) => errors.push(e) } as never);
  return {
    session, faux, errors, notices, statuses, dir,
    branch: () => session.sessionManager.getBranch() as any[],
    lastCompaction: () => [...(session.sessionManager.getBranch() as any[])].reverse().find((e) => e.type === "compaction"),
    context: () => convertToLlm(session.sessionManager.buildSessionContext().messages as never) as any[],
    dispose: () => session.dispose(),
  };
}

export { fauxAssistantMessage, fauxToolCall };
