/** The HTTP path: the server, each request's handler, admission, targets, guards, upstream forwarding, refusals, the admin endpoints. */
export { nodeSha256, type RunningProxy, startProxy } from "./server.js";
