/** `enable`, `disable`, `restart`, `status`: the standing proxy as a user service (systemd, launchd), wired into the shell profile and Codex's config. */
export { serviceCommand } from "./command.js";
