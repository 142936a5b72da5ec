/** Which client `run` starts, for the clients pointed at the proxy by their variables alone (OpenCode, Copilot CLI). */
import { isCopilot, planCopilot } from "./copilot.js";
import { isOpenCode, planOpenCode, type ClientPlan } from "./opencode.js";

/** The client's plan, null for a command that is neither, or a one-line error. */
export function clientPlan(command: string, args: readonly string[], env: NodeJS.ProcessEnv): ClientPlan | string | null {
  if (isOpenCode(command, args)) return planOpenCode(env);
  if (isCopilot(command, args)) return planCopilot(env);
  return null;
}
