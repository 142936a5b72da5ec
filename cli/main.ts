/** The `cliffcompaction` command: parse, check everything that can be checked before any work, dispatch. */
import { ConfigError } from "../core/index.js";
import { parseArgs, StartError, UsageError, type Command, type Parsed } from "./args.js";
import { compactCommand } from "./compact-command.js";
import { helpText, SHORT_USAGE, VERSION } from "./help.js";
import { InputError } from "./readers/index.js";
import { checkReport, reportCommand } from "./report/index.js";
import { hostGain } from "./host-defaults.js";
import { configOf, loadSession, settingLayers } from "./settings.js";
import { checkSimulate, simulateCommand, simulationChoice } from "./simulate/index.js";
import { forStream } from "./terminal-text.js";

const SESSION_COMMANDS: readonly Command[] = ["compact", "simulate", "report"];

/** Every check that needs no session: flag values, the config file, output paths. */
function preflight(command: Command, file: string, values: Parsed["values"]): void {
  if (command === "simulate") checkSimulate(file, values);
  if (command === "report") checkReport(file, values);
}

async function sessionCommand(p: Parsed, out: string[]): Promise<void> {
  const command = p.command!;
  const [file, ...extra] = p.positionals;
  if (file === undefined) throw new UsageError(`${command} needs a FILE (or - for standard input)`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (p.rest.length > 0) throw new UsageError(`${command} takes no command after --`);
  const layers = settingLayers(p.values);
  const cfg = configOf(layers);
  preflight(command, file, p.values);
  const session = loadSession(file, p.values.format as string | undefined);
  for (const w of session.warnings ?? []) process.stderr.write(forStream(`cliffcompaction: warning: ${w}\n`, process.stderr));
  const name = file === "-" ? "standard input" : file;
  if (command === "compact") await compactCommand(name, session, p.values, cfg, out);
  else if (command === "simulate") simulateCommand(name, session, p.values, simulationChoice(session, layers, p.values, cfg, hostGain(layers)), out);
  else reportCommand(name, session, p.values, simulationChoice(session, layers, p.values, cfg, hostGain(layers)), out);
}

export async function main(argv: string[]): Promise<number> {
  const out: string[] = [];
  try {
    const p = parseArgs(argv);
    if (p.values.version === true) {
      process.stdout.write(VERSION + "\n");
      return 0;
    }
    if (p.values.help === true) {
      process.stdout.write(helpText(p.command));
      return 0;
    }
    if (p.command === undefined) throw new UsageError(SHORT_USAGE.replace(/^usage: /, "no command given; usage: "));
    if (SESSION_COMMANDS.includes(p.command)) await sessionCommand(p, out);
    else if (p.command === "enable" || p.command === "disable" || p.command === "restart" || p.command === "status") {
      const { serviceCommand } = await import("./service/index.js");
      return await serviceCommand(p);
    } else if (p.command === "watch") {
      const { watchCommand } = await import("./watch/index.js");
      return await watchCommand(p);
    } else {
      const { proxyCommand } = await import("./proxy/index.js");
      return await proxyCommand(p);
    }
    // Session text on a terminal is shown inert; a pipe or a file gets the exact bytes.
    if (out.length > 0) process.stdout.write(forStream(out.join("\n") + "\n", process.stdout));
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(forStream(`cliffcompaction: ${e.message}\nRun "cliffcompaction --help" for usage.\n`, process.stderr));
      return 2;
    }
    if (e instanceof InputError || e instanceof ConfigError || e instanceof StartError) {
      process.stderr.write(forStream(`cliffcompaction: ${e.message}\n`, process.stderr));
      return 2;
    }
    process.stderr.write(`cliffcompaction: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  }
}
