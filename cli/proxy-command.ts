/** `cliffcompaction serve` and `run`: placeholder until the proxy host lands. */
import { UsageError, type Parsed } from "./args";

export async function proxyCommand(p: Parsed): Promise<number> {
  throw new UsageError(`${p.command} is not part of this build yet`);
}
