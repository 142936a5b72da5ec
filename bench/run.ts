/** `npm run bench`: every benchmark of the project, printed as one report. */
import { benchCore } from "./core";
import { benchPlugin } from "./plugin";
import { benchCli } from "./cli";
import { benchEngine } from "./engine";

benchCore();
benchEngine();
await benchPlugin();
benchCli();
