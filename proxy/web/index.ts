/** The web view under `/_cliff/`: the page (its script and style pinned by hash) and a session's sawtooth. */
export { PAGE_CSP, PAGE_HTML, sendPage, sha256Source, WEB_PATH } from "./page.js";
export { PAGE_SCRIPT } from "./script.js";
export { PAGE_STYLE } from "./style.js";
export { ICON_PATH, sawtoothSvg, sendIcon, sendSawtooth } from "./sawtooth.js";
