/**
 * `GET /_cliff/metrics`: the proxy's counters in Prometheus' text exposition format (version
 * 0.0.4). Labels are the proxy's own names (an API, an action, a token kind), never anything a
 * client sent.
 */
import type { Engine } from "../../core/index.js";
import type { Observer } from "./observer.js";
import type { Stats } from "./stats.js";
import type { Usage } from "./usage.js";

export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

type Sample = [labels: Record<string, string>, value: number];

class Exposition {
  private readonly lines: string[] = [];

  metric(name: string, type: "counter" | "gauge", help: string, samples: Sample[]): void {
    this.lines.push(`# HELP cliffcompaction_${name} ${help}`, `# TYPE cliffcompaction_${name} ${type}`);
    for (const [labels, value] of samples) {
      const l = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/[\\"]/g, "\\$&").replace(/\n/g, "\\n")}"`).join(",");
      this.lines.push(`cliffcompaction_${name}${l === "" ? "" : `{${l}}`} ${Number.isFinite(value) ? value : 0}`);
    }
  }

  text(): string {
    return this.lines.join("\n") + "\n";
  }
}

const USAGE_KINDS: [keyof Usage, string][] = [["input", "input"], ["cacheRead", "cache_read"], ["cacheWrite", "cache_write"], ["output", "output"]];

export function metricsText(stats: Stats, engine: Engine, observer: Observer): string {
  const m = new Exposition();
  const apis = [...observer.byApi.entries()];
  const byApi = (f: (c: (typeof apis)[number][1]) => number): Sample[] => apis.map(([api, c]) => [{ api }, f(c)]);
  const action = (...names: string[]) => byApi((c) => names.reduce((s, n) => s + (c.actions[n] ?? 0), 0));
  m.metric("requests_total", "counter", "Compactable requests, by API.", byApi((c) => c.requests));
  m.metric("cliffs_total", "counter", "Requests that sent a new summary: one other than their request without its newest turn sends (escalations included), by API.", action("cliff", "escalate"));
  m.metric("reuses_total", "counter", "Requests that sent the summary their request without its newest turn sends, by API.", action("reuse"));
  m.metric("fallbacks_total", "counter", "Compacted requests the upstream refused for a reason the proxy caused (a recall round's length included): resent as the client sent them, or a stream ended without the recall, by API.", action("fallback"));
  m.metric("compactions_answered_total", "counter", "Compaction requests of the clients (Claude Code's summary request, Codex's compaction turn) answered by the proxy with the cliff's summary, no model asked (--answer-compaction), by API.", action("answered"));
  m.metric("compactions_answered_tokens_total", "counter", "Estimated tokens those answered compaction requests would have sent the model, by API.", byApi((c) => c.answeredTokens));
  m.metric("threads_total", "counter", "Requests in one of Anthropic's message threads, by API and what the proxy did: declined (answered thread_unsupported_request, so the client resends the whole conversation) or passed (--pass-threads: sent on untouched, never compacted).", apis.flatMap(([api, c]): Sample[] => [[{ api, action: "declined" }, c.actions["thread-declined"] ?? 0], [{ api, action: "passed" }, c.actions["thread-passed"] ?? 0]]));
  m.metric("refetches_total", "counter", "Calls made after a cliff that repeat a call whose result the cliff dropped (the same tool and arguments, or a read of the same file), counted from the requests alone, by API.", byApi((c) => c.refetches));
  m.metric("refetch_tokens_total", "counter", "Estimated tokens of the results those re-fetches brought back, by API.", byApi((c) => c.refetchTokens));
  m.metric("recalls_total", "counter", "cliff_recall calls the proxy answered from the request's own history, by API.", byApi((c) => c.recalls));
  m.metric("recall_rounds_total", "counter", "Requests sent upstream again to answer a recall (each round after a request's first), by API.", byApi((c) => c.recallRounds));
  m.metric("recall_tokens_total", "counter", "Estimated tokens of the recalls' answers, by API.", byApi((c) => c.recallTokens));
  m.metric("thinking_blocks_dropped_total", "counter", "Thinking blocks the provider dropped from compacted requests (preserved thinking's input_transformations), by API.", byApi((c) => c.thinkingDropped));
  m.metric("escalations_total", "counter", "Rungs taken after an upstream context-length refusal, by API.", byApi((c) => c.escalations));
  m.metric("fail_opens_total", "counter", "Requests forwarded as received because the proxy could not decide them, by API.", action("fail-open"));
  m.metric("oversize_total", "counter", "Requests over the compaction limit, forwarded untouched, by API.", action("oversize"));
  m.metric("estimated_tokens_total", "counter", "Estimated prompt tokens received (in) and sent on (out), by API.", apis.flatMap(([api, c]): Sample[] => [[{ api, direction: "in" }, c.tokensIn], [{ api, direction: "out" }, c.tokensOut]]));
  m.metric("usage_tokens_total", "counter", "Tokens the provider reported in its answers, by API and kind.", apis.flatMap(([api, c]) => USAGE_KINDS.map(([k, kind]): Sample => [{ api, kind }, c.usage[k]])));
  m.metric("probes_total", "counter", "Probe requests (max_tokens at most 1), counted apart from sessions.", [[{}, observer.sessions.probes]]);
  m.metric("side_calls_total", "counter", "Side calls (no model turn, not a session's opening: a permission classifier, a title), counted apart from sessions' turns.", [[{}, observer.sessions.sideCalls]]);
  m.metric("refusals_total", "counter", "Requests the proxy refused before anything was sent: admission (target, Host, Origin) or strict mode over its budget.", [[{ reason: "admission" }, stats.refused], [{ reason: "over_budget" }, stats.overBudgetRefusals]]);
  m.metric("floor_warnings_total", "counter", "Sessions warned that what stays after a cliff is within the minimum gain of the threshold (cliffs as often as the gain allows).", [[{}, observer.floorWarnings]]);
  m.metric("compact_calls_total", "counter", "Calls of the transform endpoint POST /_cliff/v1/compact, by API (none: not named) and action (cliff, reuse, pass, refuse, invalid).", [...stats.compactCalls].map(([key, n]): Sample => {
    const [api, action] = key.split(" ");
    return [{ api, action }, n];
  }));
  m.metric("upstream_errors_total", "counter", "Requests whose upstream could not be reached.", [[{}, stats.upstreamErrors]]);
  m.metric("events_dropped_total", "counter", "Events dropped for event-stream subscribers that read too slowly.", [[{}, observer.events.dropped]]);
  const s = engine.stats();
  m.metric("store_entries", "gauge", "Cliffs kept in the prefix store.", [[{}, s.store.entries]]);
  m.metric("store_bytes", "gauge", "Bytes of the summaries in the prefix store.", [[{}, s.store.bytes]]);
  m.metric("memo_entries", "gauge", "Messages kept in the measurement memo.", [[{}, s.memo.entries]]);
  m.metric("memo_bytes", "gauge", "Estimated bytes the measurement memo holds.", [[{}, s.memo.bytes]]);
  m.metric("sessions", "gauge", "Sessions the proxy keeps.", [[{}, observer.sessions.size]]);
  m.metric("sessions_bytes", "gauge", "Estimated bytes the session table holds.", [[{}, observer.sessions.bytes()]]);
  m.metric("event_subscribers", "gauge", "Clients reading the event stream.", [[{}, observer.events.subscriberCount]]);
  m.metric("in_flight", "gauge", "Requests being served.", [[{}, stats.inFlight]]);
  m.metric("uptime_seconds", "gauge", "Seconds since the proxy started.", [[{}, Math.round((Date.now() - stats.started) / 1000)]]);
  return m.text();
}
