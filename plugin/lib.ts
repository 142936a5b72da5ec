/**
 * The AgentParley plugin as a library (`cliffcompaction/plugin`): the same `summarize` the sandbox
 * script assigns to `globalThis.compaction`, with its account of the decision and the envelope
 * reader, for hosts and tools that run it themselves.
 */
export { summarize, summarizeWithReport, normalizeMessages, type SummarizeContext, type SummarizeReport, type SummarizeOptions } from "./summarize.js";
export { renderEnvelope, ENVELOPE_VERSION, type Envelope, type EnvelopeMessage } from "./envelope.js";
export { parseEnvelope, recoverTask } from "./envelope-read.js";
