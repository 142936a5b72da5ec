/**
 * AgentParley entry script: assigns globalThis.compaction.summarize. Bundled by build.mjs into one
 * self-contained IIFE; build-time settings (`node build.mjs --config file.json`) arrive resolved as
 * the core's BUILD_CONFIG.
 */
import { summarize } from "./summarize.js";

const root = globalThis as unknown as { compaction?: unknown };
if (root.compaction === null || typeof root.compaction !== "object") root.compaction = {};
(root.compaction as { summarize?: unknown }).summarize = (context: unknown): string => summarize(context);
