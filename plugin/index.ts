/**
 * AgentParley entry script: assigns globalThis.compaction.summarize. Bundled by build.mjs into one
 * self-contained IIFE; build-time defaults (`node build.mjs --config file.json`) arrive through
 * the __CLIFF_BUILD_CONFIG__ constant.
 */
import { resolveConfig } from "../core/platform/index.js";
import { summarize } from "./summarize.js";

declare const __CLIFF_BUILD_CONFIG__: Record<string, unknown> | undefined;

const config = resolveConfig(typeof __CLIFF_BUILD_CONFIG__ === "undefined" ? undefined : __CLIFF_BUILD_CONFIG__);

const root = globalThis as unknown as { compaction?: unknown };
if (root.compaction === null || typeof root.compaction !== "object") root.compaction = {};
(root.compaction as { summarize?: unknown }).summarize = (context: unknown): string => summarize(context, config);
