/** `serve` as the recall tests run it: a low threshold, one turn kept, no archive, both upstreams the scripted model. */
import { resolveConfig } from "../../core/index.js";
import { startProxy, type ProxyOptions, type RunningProxy } from "../../proxy/index.js";

export function recallProxy(modelUrl: string, options: ProxyOptions = {}, openaiPath = ""): Promise<RunningProxy> {
  return startProxy({
    config: resolveConfig({ thresholdTokens: 3000, keepRecent: 1, archive: false }),
    port: 0,
    upstreams: { anthropic: modelUrl, openai: modelUrl + openaiPath },
    log: () => undefined,
    ...options,
  });
}
