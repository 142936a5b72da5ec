/**
 * The model a whole-JSON session file records, where each agent family keeps it: mini-swe-agent's
 * `info.config.model.model_name`, SWE-agent's `replay_config` (an object or its JSON text)
 * `agent.model.name`, an OpenHands record's `metadata.model_name`, an LLM call log's
 * `response.model`, a request body's `model`. SWE-agent's stand-ins (a replay, a human at the
 * keyboard) are no model and read as none.
 */
import { isObj, obj } from "../../core/index.js";

const STAND_INS = new Set(["replay", "human", "human_thought", "instant_empty_submit"]);

const named = (v: unknown): string | undefined => (typeof v === "string" && v !== "" && !STAND_INS.has(v) ? v : undefined);

function sweAgentModel(config: unknown): string | undefined {
  let c = config;
  if (typeof c === "string") {
    try {
      c = JSON.parse(c);
    } catch {
      return undefined;
    }
  }
  return named(obj(obj(obj(c).agent).model).name);
}

/** The model a session file records, or undefined. */
export function recordedModel(value: unknown): string | undefined {
  if (!isObj(value)) return undefined;
  return (
    named(value.model) ??
    named(obj(obj(obj(value.info).config).model).model_name) ??
    sweAgentModel(value.replay_config) ??
    named(obj(value.metadata).model_name) ??
    named(obj(value.response).model)
  );
}

/** The newest model an OpenHands event list names in its function-calling metadata. */
export function openHandsModel(events: readonly unknown[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const m = named(obj(obj(obj(events[i]).tool_call_metadata).model_response).model);
    if (m !== undefined) return m;
  }
  return undefined;
}
