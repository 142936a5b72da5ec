/** `watch`: a running proxy's sessions, live, in the terminal. */
export { watchCommand } from "./command.js";
