/** `npm run bench`: every benchmark of the project, printed as one report. */
import { benchCore } from "./core";

benchCore();
