// The proxy's declarations name Node's own types (http, Buffer, NodeJS.ProcessEnv): a consumer who
// type-checks against this entry needs @types/node, and this line says so by name in one error.
/// <reference types="node" preserve="true" />
/** The proxy host: CliffCompaction between an agent (Claude Code, Codex, any API client) and its model API. */
export { startProxy, nodeSha256, type RunningProxy } from "./http/index.js";
export { DEFAULT_PORT, DEFAULT_UPSTREAMS, DEFAULT_COMPACT_LIMIT, upstreamUrl, UpstreamError, type ProxyOptions } from "./options.js";
export { runAgent, type RunOptions } from "./run.js";
