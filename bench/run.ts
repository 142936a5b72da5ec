/** `npm run bench`: every benchmark of the project, printed as one report. */
import { cpus } from "node:os";
import { benchCore } from "./core";
import { benchPlugin } from "./plugin";
import { benchCli } from "./cli";
import { benchEngine } from "./engine";
import { benchPi } from "./pi";

console.log(`cliffcompaction bench — Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`);
benchCore();
benchEngine();
benchPi();
await benchPlugin();
benchCli();
