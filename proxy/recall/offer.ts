/**
 * The tool offered in each API's own shape, added to a compacted request's `tools` (after the
 * client's, so a prefix the client caches up to its own last tool stays the same). The same bytes
 * on every request: a function of the API alone. Never when the client has a tool of that name.
 */
import { RECALL_INPUT_SCHEMA, RECALL_TOOL_DESCRIPTION, RECALL_TOOL_NAME, type DialectName } from "../../core/index.js";
import { editedMember, valueText, withValue } from "../decision/index.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Gemini's `parameters` take the OpenAPI subset, types in capitals. */
const GEMINI_PARAMETERS = {
  type: "OBJECT",
  properties: {
    ref: { type: "STRING", description: RECALL_INPUT_SCHEMA.properties.ref.description },
    offset: { type: "INTEGER", description: RECALL_INPUT_SCHEMA.properties.offset.description },
    search: { type: "STRING", description: RECALL_INPUT_SCHEMA.properties.search.description },
  },
};

/** The tool as `api` declares it. */
export function recallToolOf(api: DialectName, jsonSchema = false): Obj {
  switch (api) {
    case "anthropic": return { name: RECALL_TOOL_NAME, description: RECALL_TOOL_DESCRIPTION, input_schema: RECALL_INPUT_SCHEMA };
    case "openai-chat": return { type: "function", function: { name: RECALL_TOOL_NAME, description: RECALL_TOOL_DESCRIPTION, parameters: RECALL_INPUT_SCHEMA } };
    case "openai-responses": return { type: "function", name: RECALL_TOOL_NAME, description: RECALL_TOOL_DESCRIPTION, parameters: RECALL_INPUT_SCHEMA, strict: false };
    default:
      return jsonSchema
        ? { name: RECALL_TOOL_NAME, description: RECALL_TOOL_DESCRIPTION, parametersJsonSchema: RECALL_INPUT_SCHEMA }
        : { name: RECALL_TOOL_NAME, description: RECALL_TOOL_DESCRIPTION, parameters: GEMINI_PARAMETERS };
  }
}

/** The names of the tools a request declares, in any API's shape. */
function toolNames(tools: readonly unknown[]): string[] {
  const names: string[] = [];
  for (const t of tools) {
    if (!isObj(t)) continue;
    if (typeof t.name === "string") names.push(t.name);
    if (isObj(t.function) && typeof t.function.name === "string") names.push(t.function.name);
    for (const key of ["functionDeclarations", "function_declarations"]) {
      const list = t[key];
      if (Array.isArray(list)) for (const f of list) if (isObj(f) && typeof f.name === "string") names.push(f.name);
    }
  }
  return names;
}

/**
 * `body` (the outgoing request's text) with the tool added, or null: the client has a tool of that
 * name, or its tools are not a list. `envelope`: the body's member that holds the request (Code
 * Assist's `request`), where the tools are.
 */
export function withRecallTool(api: DialectName, body: string, envelope?: string): string | null {
  return envelope === undefined ? withTool(api, body) : editedMember(body, envelope, (request) => withTool(api, request));
}

/**
 * The request's text with the tool added (null: not offered). Gemini's declarations go into the
 * first tool that has some (in the form the client uses), else into a tool of their own.
 */
function withTool(api: DialectName, body: string): string | null {
  const text = valueText(body, "tools");
  let tools: unknown;
  try {
    tools = text === null ? [] : JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(tools) || toolNames(tools).includes(RECALL_TOOL_NAME)) return null;
  if (api === "gemini") {
    const at = tools.findIndex((t) => isObj(t) && Array.isArray(t.functionDeclarations));
    if (at >= 0) {
      const t = tools[at] as Obj;
      const decls = t.functionDeclarations as Obj[];
      const jsonSchema = decls.some((d) => isObj(d) && d.parametersJsonSchema !== undefined);
      tools = tools.map((x, i) => (i === at ? { ...t, functionDeclarations: [...decls, recallToolOf(api, jsonSchema)] } : x));
    } else tools = [...tools, { functionDeclarations: [recallToolOf(api)] }];
    return withValue(body, "tools", JSON.stringify(tools));
  }
  // The client's own tools keep their bytes: ours is written after them.
  const ours = JSON.stringify(recallToolOf(api));
  if (text === null || tools.length === 0) return withValue(body, "tools", `[${ours}]`);
  return withValue(body, "tools", text.slice(0, text.lastIndexOf("]")) + "," + ours + "]");
}
