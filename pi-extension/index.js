// cliffcompaction 0.2.0 (MIT): built from the TypeScript beside it by build.mjs; edit the source, not this file.

// pi-extension/config.ts
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

// core/config/defaults.ts
var REFERENCE_CONFIG = Object.freeze({
  profile: "reference",
  enabled: true,
  thresholdTokens: 2e5,
  keepRecent: 3,
  thoughtMaxChars: 0,
  cmdMaxChars: 150,
  resultMaxChars: 500,
  humanMaxChars: 2e4,
  keepThinking: true,
  thinkingMaxChars: 0,
  shadow: false,
  strict: false,
  storeMaxEntries: 4096,
  storeMaxBytes: 67108864,
  maxSummaryRatio: 0.45,
  focusResultMaxChars: 800,
  focusTotalMaxChars: 6e3,
  focusContextLines: 1,
  filesMaxPaths: 200,
  filesMaxChars: 16e3,
  appendFileLists: false,
  archive: false,
  archiveDir: "",
  archiveMaxBytes: 268435456,
  minGainTokens: 0,
  calibrate: false,
  // The recall rules: off (the reference's output), on in the recall profile.
  editMaxChars: 0,
  errorTailMaxChars: 0,
  planMaxChars: 0,
  tailFocus: false,
  keepResultsOf: Object.freeze([]),
  keepFiles: Object.freeze([]),
  pinMaxChars: 4e3,
  // The one rule on in the reference profile too: its output changes only for a history that holds a stub.
  keepStubbedReads: true,
  keepEditedFiles: false,
  workingSetFileMaxChars: 0,
  workingSetMaxChars: 4e4,
  ...typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__ ? {} : { askedTwiceMaxChars: 0, askedTwiceTotalMaxChars: 16e3 },
  outlineFileMaxChars: 0,
  outlineMaxChars: 6e3,
  listingMaxChars: 0,
  ...typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__ ? {} : { backRefMaxChars: 0, backRefTotalMaxChars: 2e3 }
});
var RECALL = Object.freeze({
  editMaxChars: 16e3,
  workingSetFileMaxChars: 16e3,
  workingSetMaxChars: 4e4,
  planMaxChars: 3e3,
  cmdMaxChars: 1e3,
  humanMaxChars: 1e3,
  thoughtMaxChars: 2e3,
  keepThinking: false,
  resultMaxChars: 200,
  tailFocus: true,
  focusContextLines: 1,
  focusResultMaxChars: 500,
  focusTotalMaxChars: 1e3,
  keepFiles: Object.freeze(["AGENTS.md", "CLAUDE.md"]),
  archive: true,
  keepEditedFiles: true,
  outlineFileMaxChars: 1500,
  outlineMaxChars: 6e3,
  listingMaxChars: 1500,
  ...typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__ ? {} : { askedTwiceMaxChars: 8e3, askedTwiceTotalMaxChars: 16e3 },
  ...typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__ ? {} : { backRefMaxChars: 800, backRefTotalMaxChars: 2e3 }
});
function referenceValues() {
  const out = {};
  for (const key of Object.keys(RECALL)) out[key] = REFERENCE_CONFIG[key];
  return Object.freeze(out);
}
var PROFILES = { reference: referenceValues(), recall: RECALL };
var DEFAULT_CONFIG = Object.freeze({ ...REFERENCE_CONFIG, ...RECALL, profile: "recall" });

// core/config/kinds.ts
var CONFIG_ENUMS = {
  profile: Object.keys(PROFILES)
};
var CONFIG_KINDS = {
  profile: "enum",
  enabled: "bool",
  thresholdTokens: "int",
  keepRecent: "int",
  thoughtMaxChars: "int",
  cmdMaxChars: "int",
  resultMaxChars: "int",
  humanMaxChars: "int",
  keepThinking: "bool",
  thinkingMaxChars: "int",
  shadow: "bool",
  strict: "bool",
  storeMaxEntries: "int",
  storeMaxBytes: "int",
  maxSummaryRatio: "ratio",
  focusResultMaxChars: "int",
  focusTotalMaxChars: "int",
  focusContextLines: "int",
  filesMaxPaths: "int",
  filesMaxChars: "int",
  appendFileLists: "bool",
  archive: "bool",
  archiveDir: "string",
  archiveMaxBytes: "int",
  minGainTokens: "int",
  calibrate: "bool",
  editMaxChars: "int",
  errorTailMaxChars: "int",
  planMaxChars: "int",
  tailFocus: "bool",
  keepResultsOf: "list",
  keepFiles: "list",
  pinMaxChars: "int",
  keepStubbedReads: "bool",
  keepEditedFiles: "bool",
  workingSetFileMaxChars: "int",
  workingSetMaxChars: "int",
  ...typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__ ? {} : { askedTwiceMaxChars: "int", askedTwiceTotalMaxChars: "int" },
  outlineFileMaxChars: "int",
  outlineMaxChars: "int",
  listingMaxChars: "int",
  ...typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__ ? {} : { backRefMaxChars: "int", backRefTotalMaxChars: "int" }
};
var CONFIG_KEYS = Object.keys(CONFIG_KINDS);
var WHAT = {
  int: "a whole number \u2265 0",
  bool: "true or false",
  ratio: "a number in (0, 1]",
  enum: "one of the names listed",
  list: "a list of strings",
  string: "a string"
};
function what(key) {
  const kind = CONFIG_KINDS[key];
  return kind === "enum" ? `one of ${CONFIG_ENUMS[key].join(", ")}` : WHAT[kind];
}
var TRUE = /^(true|1|yes|on)$/i;
var FALSE = /^(false|0|no|off)$/i;
function parseSetting(key, text) {
  const kind = CONFIG_KINDS[key];
  const t = text.trim();
  const bad = () => {
    throw new ConfigError(key, `must be ${what(key)}`);
  };
  if (kind === "bool") return TRUE.test(t) ? true : FALSE.test(t) ? false : bad();
  if (kind === "string") return text;
  if (kind === "list") return t.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (kind === "enum") return CONFIG_ENUMS[key].indexOf(t) >= 0 ? t : bad();
  const v = kind === "int" && /^\+?\d+$/.test(t) ? Number(t) : kind === "ratio" && t !== "" ? Number(t) : NaN;
  if (kind === "int" ? !Number.isSafeInteger(v) : !(v > 0 && v <= 1)) bad();
  return v;
}
var ConfigError = class extends Error {
  constructor(key, message) {
    super(message);
    this.key = key;
    this.name = "ConfigError";
  }
};

// core/config/resolve.ts
function camel(key) {
  return key.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}
function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return "the string " + JSON.stringify(v.length > 40 ? v.slice(0, 40) + "\u2026" : v);
  return typeof v === "object" ? "an object" : String(v);
}
function resolveConfig(partial, base = DEFAULT_CONFIG) {
  if (partial === void 0 || partial === null) return resolved({ ...base });
  if (typeof partial !== "object" || Array.isArray(partial)) {
    throw new ConfigError("(config)", `config must be an object of settings, got ${describe(partial)}`);
  }
  const values = partial;
  const keys = Object.keys(values);
  const out = { ...base };
  for (const raw of keys) {
    if (camel(raw) === "profile" && values[raw] !== void 0) {
      const profile = checked(raw, values[raw]);
      Object.assign(out, PROFILES[profile], { profile });
    }
  }
  for (const raw of keys) {
    const key = camel(raw);
    if (key === "profile" || values[raw] === void 0) continue;
    out[key] = checked(raw, values[raw]);
  }
  return resolved(out);
}
function checked(raw, value) {
  const key = camel(raw);
  if (!Object.prototype.hasOwnProperty.call(CONFIG_KINDS, key)) {
    throw new ConfigError(raw, `unknown config key "${raw}"; known keys: ${CONFIG_KEYS.join(", ")}`);
  }
  const kind = CONFIG_KINDS[key];
  const ok = kind === "bool" ? typeof value === "boolean" : kind === "int" ? typeof value === "number" && Number.isSafeInteger(value) && value >= 0 : kind === "ratio" ? typeof value === "number" && value > 0 && value <= 1 : kind === "enum" ? typeof value === "string" && CONFIG_ENUMS[key].indexOf(value) >= 0 : kind === "list" ? Array.isArray(value) && value.every((v) => typeof v === "string") : typeof value === "string";
  if (!ok) throw new ConfigError(raw, `config key "${raw}" must be ${what(key)}, got ${describe(value)}`);
  return kind === "list" ? Object.freeze(value.slice()) : value;
}
var RESOLVED = /* @__PURE__ */ new WeakSet();
function resolved(cfg) {
  RESOLVED.add(Object.freeze(cfg));
  return cfg;
}
function toConfig(config) {
  return typeof config === "object" && config !== null && RESOLVED.has(config) ? config : resolveConfig(config);
}

// core/config/layers.ts
function valueIn(layer, key) {
  for (const raw of Object.keys(layer.values)) if (camel(raw) === key && layer.values[raw] !== void 0) return layer.values[raw];
  return void 0;
}
function resolveLayers(layers, hostDefaults = {}, hostKeys = []) {
  let cfg = resolveConfig(hostDefaults, DEFAULT_CONFIG);
  const attempt = (source, values) => {
    try {
      cfg = resolveConfig(values, cfg);
    } catch (e) {
      if (e instanceof ConfigError) throw new ConfigError(e.key, `${source}: ${e.message}`);
      throw e;
    }
  };
  for (let i = layers.length - 1; i >= 0; i--) {
    const profile = valueIn(layers[i], "profile");
    if (profile !== void 0) {
      attempt(layers[i].source, { profile });
      break;
    }
  }
  for (const layer of layers) {
    const values = {};
    for (const raw of Object.keys(layer.values)) {
      const key = camel(raw);
      if (key !== "profile" && hostKeys.indexOf(key) < 0) values[raw] = layer.values[raw];
    }
    attempt(layer.source, values);
  }
  return cfg;
}
function envName(key) {
  return "CLIFF_" + key.replace(/[A-Z]/g, (c) => "_" + c).toUpperCase();
}
function envValues(env) {
  const values = {};
  const problems = [];
  for (const key of CONFIG_KEYS) {
    const name = envName(key);
    const raw = env[name];
    if (raw === void 0 || raw === "") continue;
    try {
      values[key] = parseSetting(key, raw);
    } catch (e) {
      problems.push(`${name}=${JSON.stringify(raw)} ${e.message}`);
    }
  }
  return { values, problems };
}

// core/dialects/registry.ts
var DIALECTS = /* @__PURE__ */ new Map();
var DIALECT_NAMES = [];
function registerDialect(d) {
  if (!DIALECTS.has(d.name)) DIALECT_NAMES.push(d.name);
  DIALECTS.set(d.name, d);
}
function getDialect(name) {
  if (typeof name === "object" && name !== null) return name;
  const d = typeof name === "string" ? DIALECTS.get(name) : void 0;
  if (d === void 0) throw new TypeError(`unknown dialect ${JSON.stringify(name)}; expected one of: ${DIALECT_NAMES.join(", ")}`);
  return d;
}

// core/errors.ts
var CliffInputError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "CliffInputError";
  }
};

// core/guards.ts
var isArray = Array.isArray;
var objectKeys = Object.keys;
var getPrototypeOf = Object.getPrototypeOf;
var OBJECT_PROTOTYPE = Object.prototype;
var jsonStringify = JSON.stringify;
var jsonParse = JSON.parse;
function isObj(v) {
  return v !== null && typeof v === "object" && !isArray(v);
}
function obj(v) {
  return isObj(v) ? v : {};
}
function arr(v) {
  return isArray(v) ? v : [];
}
function str(v) {
  return typeof v === "string" ? v : "";
}

// core/estimate/escape-scan-module.ts
var ESCAPE_SCAN_WASM_HEX = "0061736d0100000001060160017f017f030201000503010004071102066d656d6f72790200047363616e00000ac70101c40102027f0b7b4120fd0f21074122fd0f210841dc00fd0f21094109fd0f210a410afd0f210b410dfd0f210c41ef01fd0f210d20002007fd0b040002400340200120004f0d012001fd000400210320032007fd2621042002200420032008fd2320032009fd23fd50fd50fd64696a2102200520042003200bfd232003200afd232003200cfd23fd50fd50fd4ffd50210520062003200dfd23fd502106200141106a21010c000b0b200241808080800141002005fd531b41808080800241002006fd531b72720b";

// core/estimate/escape-scan.ts
var WASM_RARE = 268435456;
var WASM_LEAD_EF = 536870912;
var WASM_COUNT = 268435455;
var RARE_CONTROL = 1;
var MAYBE_LONE_SURROGATE = 2;
function packed(escapes, wasmFlags) {
  return escapes * 4 + (wasmFlags & WASM_RARE ? RARE_CONTROL : 0) + (wasmFlags & WASM_LEAD_EF ? MAYBE_LONE_SURROGATE : 0);
}
function scanFlags(result) {
  return result % 4;
}
function scanEscapes(result) {
  return (result - result % 4) / 4;
}
function bytesOf(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}
function scannerFrom(platform) {
  const wasm = platform.WebAssembly;
  const Encoder = platform.TextEncoder;
  if (typeof wasm !== "object" || wasm === null || typeof Encoder !== "function") return void 0;
  const { exports } = new wasm.Instance(new wasm.Module(bytesOf(ESCAPE_SCAN_WASM_HEX)));
  const scan = exports.scan;
  const memory = new Uint8Array(exports.memory.buffer);
  const window = memory.subarray(0, memory.length - 16);
  const chunkUnits = Math.floor(window.length / 3);
  const encoder = new Encoder();
  return (s) => {
    if (s.length <= chunkUnits) {
      const r = scan(encoder.encodeInto(s, window).written);
      return packed(r & WASM_COUNT, r);
    }
    let count = 0;
    let flags = 0;
    for (let at = 0; at < s.length; ) {
      let end = Math.min(s.length, at + chunkUnits);
      const last = s.charCodeAt(end - 1);
      if (end < s.length && last >= 55296 && last <= 56319) end--;
      const r = scan(encoder.encodeInto(s.slice(at, end), window).written);
      count += r & WASM_COUNT;
      flags |= r;
      at = end;
    }
    return packed(count, flags);
  };
}
function behaves(scanner) {
  return scanner('a"b\\c\nd	e\rf') === 5 * 4 && scanner('sixteen bytes...then "two"') === 2 * 4 && scanner("") === 1 * 4 + RARE_CONTROL && scanner("\uD800") === MAYBE_LONE_SURROGATE && scanner("\xE9\u{1F600}\u65E5\u672C plain") === 0;
}
function loadEscapeScanner(platform) {
  try {
    const scanner = scannerFrom(platform);
    return scanner !== void 0 && behaves(scanner) ? scanner : void 0;
  } catch {
    return void 0;
  }
}
var escapeScanner = typeof __CLIFF_ES2020_ONLY__ !== "undefined" && __CLIFF_ES2020_ONLY__ ? void 0 : loadEscapeScanner(globalThis);

// core/estimate/json-string.ts
var LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
var LONG_ESCAPES = [];
for (let c = 0; c < 32; c++) if (c !== 9 && c !== 10 && c !== 13) LONG_ESCAPES.push(String.fromCharCode(c));
var SHORT_STRING = 48;
var SHORT_FOR_SCAN = 24;
var LONG_STRING = 512;
function occurrences(s, ch) {
  let n = 0;
  for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) n++;
  return n;
}
function loneSurrogates(s) {
  const wellFormed = s.isWellFormed;
  if (typeof wellFormed === "function" && wellFormed.call(s)) return 0;
  LONE_SURROGATE.lastIndex = 0;
  let n = 0;
  while (LONE_SURROGATE.exec(s) !== null) n++;
  return n;
}
function hasLongEscape(s) {
  for (let i = 0; i < LONG_ESCAPES.length; i++) if (s.indexOf(LONG_ESCAPES[i]) >= 0) return true;
  return false;
}
var HAS_RARE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
function searchedLength(s) {
  if (s.length >= LONG_STRING ? hasLongEscape(s) : HAS_RARE_CONTROL.test(s)) return escapedLengthSlow(s);
  const short = occurrences(s, "\n") + occurrences(s, '"') + occurrences(s, "\\") + occurrences(s, "	") + occurrences(s, "\r");
  return s.length + 2 + short + 5 * loneSurrogates(s);
}
function scannedLength(s, scan) {
  const r = scan(s);
  const flags = scanFlags(r);
  if (flags & RARE_CONTROL) return escapedLengthSlow(s);
  return s.length + 2 + scanEscapes(r) + (flags & MAYBE_LONE_SURROGATE ? 5 * loneSurrogates(s) : 0);
}
function escapedLengthSlow(s) {
  let n = s.length + 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 32 && c !== 34 && c !== 92 && (c < 55296 || c > 57343)) continue;
    if (c === 34 || c === 92 || c === 8 || c === 9 || c === 10 || c === 12 || c === 13) n += 1;
    else if (c < 32) n += 5;
    else if (c <= 56319) {
      const d = s.charCodeAt(i + 1);
      if (d >= 56320 && d <= 57343) i++;
      else n += 5;
    } else n += 5;
  }
  return n;
}
function stringJsonLength(s) {
  if (escapeScanner !== void 0) return s.length < SHORT_FOR_SCAN ? escapedLengthSlow(s) : scannedLength(s, escapeScanner);
  return s.length < SHORT_STRING ? escapedLengthSlow(s) : searchedLength(s);
}

// core/estimate/json.ts
var CANONICAL = { sortKeys: true, itemSep: ",", keySep: ":" };
var PYTHON_DEFAULT = { sortKeys: false, itemSep: ", ", keySep: ": " };
function isSkipped(v) {
  return v === void 0 || typeof v === "function" || typeof v === "symbol";
}
function scalarJson(v) {
  if (v === null) return "null";
  switch (typeof v) {
    case "string":
      return jsonStringify(v);
    case "number":
      return isFinite(v) ? String(v) : "null";
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return String(v);
    default:
      return "null";
  }
}
function stringPrefixJson(s, room) {
  let end = Math.max(0, room) + 2;
  const last = s.charCodeAt(end - 1);
  if (last >= 55296 && last <= 56319) end--;
  const json = jsonStringify(s.slice(0, end));
  return json.slice(0, json.length - 1);
}
var POWERS_OF_TEN = [];
for (let k = 0, p = 1; k <= 21; k++, p *= 10) POWERS_OF_TEN.push(p);
function numberLength(v) {
  if (v >= 0 && v < 1e21 && v === Math.floor(v) && !(v === 0 && 1 / v < 0)) {
    let lo = 1;
    let hi = 21;
    while (lo < hi) {
      const mid = lo + hi >> 1;
      if (v >= POWERS_OF_TEN[mid]) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  return String(v).length;
}
function scalarLength(v) {
  if (typeof v === "string") return stringJsonLength(v);
  if (typeof v === "number") return isFinite(v) ? numberLength(v) : 4;
  if (v === true) return 4;
  if (v === false) return 5;
  if (typeof v === "bigint") return String(v).length;
  return 4;
}
function keysOf(o, sort) {
  const keys = objectKeys(o);
  return sort ? keys.sort() : keys;
}
function cyclic() {
  return new CliffInputError("cyclic structure: a message refers to itself, so it cannot be serialised");
}
function serializeJson(value, style, limit = 0) {
  if (value === null || typeof value !== "object") return isSkipped(value) ? "null" : scalarJson(value);
  let out = "";
  const path = /* @__PURE__ */ new Set();
  const stack = [];
  const open = (o) => {
    if (path.has(o)) throw cyclic();
    path.add(o);
    const isArr = isArray(o);
    out += isArr ? "[" : "{";
    stack.push({ value: o, keys: isArr ? null : keysOf(o, style.sortKeys), index: 0, wrote: false });
  };
  open(value);
  while (stack.length > 0) {
    if (limit > 0 && out.length > limit) return out;
    const f = stack[stack.length - 1];
    const arr2 = f.value;
    const obj2 = f.value;
    const count = f.keys === null ? arr2.length : f.keys.length;
    if (f.index >= count) {
      out += f.keys === null ? "]" : "}";
      path.delete(f.value);
      stack.pop();
      continue;
    }
    const i = f.index++;
    let child;
    if (f.keys === null) {
      child = arr2[i];
      if (f.wrote) out += style.itemSep;
      f.wrote = true;
      if (isSkipped(child)) {
        out += "null";
        continue;
      }
    } else {
      const key = f.keys[i];
      child = obj2[key];
      if (isSkipped(child)) continue;
      if (f.wrote) out += style.itemSep;
      f.wrote = true;
      out += jsonStringify(key) + style.keySep;
    }
    if (child !== null && typeof child === "object") open(child);
    else if (limit > 0 && typeof child === "string" && child.length > limit - out.length + 2) out += stringPrefixJson(child, limit - out.length);
    else out += scalarJson(child);
  }
  return out;
}
function canonicalJson(value, limit = 0) {
  return serializeJson(value, CANONICAL, limit);
}
var keyLengths = /* @__PURE__ */ new Map();
var KEY_CACHE_MAX = 4096;
var KEY_CACHED_CHARS = 64;
function keyLength(key) {
  const known = keyLengths.get(key);
  if (known !== void 0) return known;
  const n = stringJsonLength(key);
  if (key.length <= KEY_CACHED_CHARS && keyLengths.size < KEY_CACHE_MAX) keyLengths.set(key, n);
  return n;
}
var CYCLE_CHECK_DEPTH = 1e4;
function assertAcyclic(value) {
  const EXIT = {};
  const path = /* @__PURE__ */ new Set();
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === EXIT) {
      path.delete(stack.pop());
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (path.has(v)) throw cyclic();
    path.add(v);
    stack.push(v, EXIT);
    const children = isArray(v) ? v : Object.values(v);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}
function measureJson(value, style = PYTHON_DEFAULT, adjust) {
  if (value === null || typeof value !== "object") return isSkipped(value) ? 4 : scalarLength(value);
  const itemSep = style.itemSep.length;
  const keySep = style.keySep.length;
  let total = 0;
  const stack = [value];
  const depths = [0];
  let handled = -1;
  let checked2 = false;
  while (stack.length > 0) {
    const v = stack.pop();
    const depth = depths.pop();
    if (depth <= handled) handled = -1;
    if (depth > CYCLE_CHECK_DEPTH && !checked2) {
      assertAcyclic(value);
      checked2 = true;
    }
    if (adjust !== void 0 && handled < 0 && !isArray(v)) {
      const extra = adjust(v);
      if (extra !== void 0) {
        total += extra;
        handled = depth;
      }
    }
    if (isArray(v)) {
      const n = v.length;
      total += 2 + (n > 0 ? (n - 1) * itemSep : 0);
      for (let i = n - 1; i >= 0; i--) {
        const child = v[i];
        if (child !== null && typeof child === "object") {
          stack.push(child);
          depths.push(depth + 1);
        } else total += isSkipped(child) ? 4 : scalarLength(child);
      }
    } else {
      const o = v;
      const keys = objectKeys(o);
      let written = 0;
      for (let i = keys.length - 1; i >= 0; i--) {
        const child = o[keys[i]];
        if (isSkipped(child)) continue;
        written++;
        total += keyLength(keys[i]) + keySep;
        if (child !== null && typeof child === "object") {
          stack.push(child);
          depths.push(depth + 1);
        } else total += scalarLength(child);
      }
      total += 2 + (written > 0 ? (written - 1) * itemSep : 0);
    }
  }
  return total;
}
function pythonJsonLength(value) {
  return measureJson(value, PYTHON_DEFAULT);
}

// core/parts/call-kinds.ts
var words = (list) => new Set(list.split(" "));
var EDIT_TOOLS = words("edit write multiedit notebookedit write_file edit_file create_file str_replace_editor str_replace_based_edit_tool apply_patch apply_patch_call" + (typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__ ? "" : " replace"));
var SHELL_TOOLS = words("shell shell_command exec exec_command local_shell local_shell_call container.exec bash execute_bash run_command run_shell_command terminal");
var NEW_TEXT_KEYS = ["new_string", "newText", "new_str", "new_text", "content", "file_text", "new_source", "input", "patch", "patchText", "diff"];
var PLAN_TOOLS = words("todowrite todo_write write_todos todo todos update_plan task_tracker manage_todo_list todo_list");
function argsObject(args) {
  if (typeof args !== "string") return obj(args);
  const t = args.trimStart();
  if (t.startsWith("{")) {
    try {
      return obj(jsonParse(t));
    } catch {
      return { input: args };
    }
  }
  return { input: args };
}
function firstString(o, keys) {
  for (const k of keys) if (typeof o[k] === "string" && o[k] !== "") return o[k];
  return void 0;
}
function textsOf(args) {
  const out = [];
  const own = firstString(args, NEW_TEXT_KEYS);
  if (own !== void 0) out.push(own);
  for (const e of arr(args.edits)) {
    const t = firstString(obj(e), NEW_TEXT_KEYS);
    if (t !== void 0) out.push(t);
  }
  return out;
}
function shellWrite(args) {
  const command = args.command ?? args.cmd;
  if (isArray(command) && command[0] === "apply_patch" && typeof command[1] === "string") return command[1];
  if (isArray(command) && typeof command[command.length - 1] === "string") return multiline(command[command.length - 1]);
  return typeof command === "string" ? multiline(command) : null;
}
var multiline = (text) => text.indexOf("\n") >= 0 ? text : null;
function editTextOf(name, rawArgs) {
  const tool = typeof name === "string" ? name.toLowerCase() : "";
  const shell = SHELL_TOOLS.has(tool);
  if (!EDIT_TOOLS.has(tool) && !shell) return null;
  const args = argsObject(rawArgs);
  if (shell) {
    const written = shellWrite(args);
    return written === null ? null : { path: null, texts: [written] };
  }
  if (args.command === "view") return null;
  const op = obj(args.operation);
  const texts = typeof op.diff === "string" && op.diff !== "" ? [op.diff] : textsOf(args);
  if (texts.length === 0) return null;
  const path = firstString(args, FILE_PATH_KEYS) ?? firstString(op, FILE_PATH_KEYS) ?? null;
  return { path, texts };
}
function isPlanCall(name, rawArgs) {
  const tool = typeof name === "string" ? name.toLowerCase() : "";
  if (!PLAN_TOOLS.has(tool)) return false;
  const args = argsObject(rawArgs);
  return args.command !== "view" && args.action !== "list" && args.action !== "view";
}
var READ_TOOLS = words("read read_file view view_file notebookread open_file");
var WRITE_TOOLS = words("write edit multiedit notebookedit write_file edit_file create_file str_replace_based_edit_tool" + (typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__ ? "" : " replace"));
var PATCH_TOOLS = words("apply_patch apply_patch_call");
var EDITOR_TOOLS = words("str_replace_editor str_replace_based_edit_tool");
var FILE_PATH_KEYS = ["path", "file_path", "filePath", "filename", "notebook_path"];
var PATCH_LINE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;
function pathsIn(args) {
  const out = [];
  for (const k of FILE_PATH_KEYS) if (typeof args[k] === "string" && args[k] !== "") out.push(args[k]);
  for (const p of arr(args.paths)) if (typeof p === "string" && p !== "") out.push(p);
  return out;
}
function patchPaths(args) {
  const op = obj(args.operation ?? args);
  if (typeof op.type === "string" && /_file$/.test(op.type) && typeof op.path === "string" && op.path !== "") return [op.path];
  const text = [args.input, args.patch, args.patchText, args.diff, args.command].map((v) => Array.isArray(v) ? v.join("\n") : str(v)).join("\n");
  const out = [];
  for (const m of text.matchAll(PATCH_LINE)) out.push(m[1].trim());
  return out.filter((p) => p !== "");
}
function fileOpsOfCall(name, rawArgs) {
  const tool = str(name).toLowerCase();
  const args = argsObject(rawArgs);
  if (PATCH_TOOLS.has(tool)) return { read: [], modified: patchPaths(args) };
  if (EDITOR_TOOLS.has(tool) && typeof args.command === "string") {
    const paths = pathsIn(args);
    return args.command === "view" ? { read: paths, modified: [] } : { read: [], modified: paths };
  }
  if (READ_TOOLS.has(tool)) return { read: pathsIn(args), modified: [] };
  if (WRITE_TOOLS.has(tool)) return { read: [], modified: pathsIn(args) };
  return { read: [], modified: [] };
}

// core/files.ts
var FileTracker = class {
  constructor() {
    // Path → when it was last seen; Map order is the order of last sight (oldest first).
    this.read = /* @__PURE__ */ new Map();
    this.modified = /* @__PURE__ */ new Map();
    this.clock = 0;
  }
  /** Adds lists (older events first); a path seen again moves to the newest place. */
  add(read2, modified) {
    for (const p of read2) {
      this.read.delete(p);
      this.read.set(p, this.clock++);
    }
    for (const p of modified) {
      this.modified.delete(p);
      this.modified.set(p, this.clock++);
    }
  }
  /** Adds what one tool call did. */
  addCall(name, args) {
    const ops = fileOpsOfCall(name, args);
    this.add(ops.read, ops.modified);
  }
  /** Adds the lists a text carries in Pi's tagged form (an earlier summary's). */
  addText(text) {
    const lists = parseFileLists(text);
    this.add(lists.read.slice().reverse(), lists.modified.slice().reverse());
  }
  /** The newest files within the caps, as the two lists (newest first). */
  capped(maxPaths, maxChars) {
    return toFileLists(this.newest(maxPaths, maxChars));
  }
  /** The lists, oldest first; modified files are not listed as read. */
  lists() {
    return { read: [...this.read.keys()].filter((p) => !this.modified.has(p)), modified: [...this.modified.keys()] };
  }
  /**
   * The newest files across both lists, newest first, within `maxPaths` paths and `maxChars`
   * characters of paths (a path that does not fit ends the walk: older ones are dropped).
   */
  newest(maxPaths, maxChars) {
    const all = [];
    for (const [p, t] of this.modified) all.push([p, t, true]);
    for (const [p, t] of this.read) if (!this.modified.has(p)) all.push([p, t, false]);
    all.sort((a, b) => b[1] - a[1]);
    const out = [];
    let chars = 0;
    for (const [path, , modified] of all) {
      if (out.length >= maxPaths || chars + path.length > maxChars) break;
      chars += path.length;
      out.push({ path, modified });
    }
    return out;
  }
};
function toFileLists(files) {
  const out = { read: [], modified: [] };
  for (const f of files) (f.modified ? out.modified : out.read).push(f.path);
  return out;
}
var CALLS_ONLY = { ...REFERENCE_CONFIG, keepThinking: false, thoughtMaxChars: 1, cmdMaxChars: 1, humanMaxChars: 1, resultMaxChars: 0 };
function filesTouched(messages, dialect, tracker = new FileTracker(), decoded) {
  const d = getDialect(dialect);
  const ctx = { cfg: CALLS_ONLY, decoded, onCall: (name, args) => tracker.addCall(name, args) };
  for (const m of messages) if (d.isAssistant(m)) d.summarize(m, ctx);
  return tracker.lists();
}
var TAGGED = /<(read|modified)-files>\n([^]*?)\n<\/\1-files>/g;
function parseFileLists(text) {
  const out = { read: [], modified: [] };
  if (text.indexOf("-files>") < 0) return out;
  for (const m of text.matchAll(TAGGED)) out[m[1] === "read" ? "read" : "modified"] = m[2].split("\n").filter((p) => p !== "");
  return out;
}
var writable = (p) => !/[\n\r]|<\//.test(p);
function formatFileLists(files) {
  const sections = [];
  const read2 = files.read.filter(writable);
  const modified = files.modified.filter(writable);
  if (read2.length > 0) sections.push(`<read-files>
${read2.join("\n")}
</read-files>`);
  if (modified.length > 0) sections.push(`<modified-files>
${modified.join("\n")}
</modified-files>`);
  return sections.length === 0 ? "" : "\n\n" + sections.join("\n\n");
}
function addCarriedFiles(tracker, branchEntries, preparation) {
  const strings2 = (v) => Array.isArray(v) ? v.filter((f) => typeof f === "string") : [];
  for (const e of branchEntries) {
    if (!isObj(e) || e.type !== "compaction") continue;
    const d = obj(e.details);
    tracker.add(strings2(d.readFiles), strings2(d.modifiedFiles));
  }
  const ops = obj(obj(preparation).fileOps);
  const list = (v) => strings2(v instanceof Set ? [...v] : v);
  tracker.add(list(ops.read), [...list(ops.written), ...list(ops.edited)]);
}

// core/text.ts
var ELLIPSIS = "...";
function isPyWhitespace(c) {
  if (c <= 32) return c === 32 || c >= 9 && c <= 13 || c >= 28 && c <= 31;
  if (c < 133) return false;
  return c === 133 || c === 160 || c === 5760 || c >= 8192 && c <= 8202 || c === 8232 || c === 8233 || c === 8239 || c === 8287 || c === 12288;
}
function strip(text) {
  let start = 0;
  let end = text.length;
  while (start < end && isPyWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isPyWhitespace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
function isBlank(text) {
  for (let i = 0; i < text.length; i++) if (!isPyWhitespace(text.charCodeAt(i))) return false;
  return true;
}
function truncate(text, n) {
  if (!(n > 0) || text.length <= n) return text;
  let cut = n;
  const before = text.charCodeAt(cut - 1);
  if (before >= 55296 && before <= 56319) {
    const after = text.charCodeAt(cut);
    if (after >= 56320 && after <= 57343) cut--;
  }
  return text.slice(0, cut) + ELLIPSIS;
}
var SURROGATE = /[\ud800-\udfff]/;
var nativeIs = String.prototype.isWellFormed;
var nativeTo = String.prototype.toWellFormed;
function toWellFormed(text) {
  if (nativeIs !== void 0 && nativeTo !== void 0) return nativeIs.call(text) ? text : nativeTo.call(text);
  if (!SURROGATE.test(text)) return text;
  const out = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 55296 || c > 57343) continue;
    if (c <= 56319) {
      const d = text.charCodeAt(i + 1);
      if (d >= 56320 && d <= 57343) {
        i++;
        continue;
      }
    }
    out.push(text.slice(from, i), "\uFFFD");
    from = i + 1;
  }
  if (from === 0) return text;
  out.push(text.slice(from));
  return out.join("");
}
function isWellFormed(text) {
  return nativeIs !== void 0 ? nativeIs.call(text) : toWellFormed(text) === text;
}
var TASK_NOTIFICATION = /<task-notification>[\s\S]*?<\/task-notification>\s*/g;
function stripTaskNotifications(text) {
  return text.indexOf("<task-notification>") < 0 ? text : text.replace(TASK_NOTIFICATION, "");
}

// core/focus.ts
var FOCUS_EXCERPT_TAG = "result (focus excerpt): ";
var STOPWORDS = new Set(
  "the and for with that this from into onto about keep focus on in of to a an is are was were be been what which when where who how why all any each not but only also just then than them they their there please make sure remember preserve important details detail anything everything things thing file files".split(" ")
);
var MAX_TERMS = 32;
function parseFocus(text) {
  if (typeof text !== "string") return void 0;
  const terms = [];
  const add = (t) => {
    const term = t.toLowerCase();
    const long = term.length >= 3 || term.length === 2 && /\d/.test(term);
    if (long && !STOPWORDS.has(term) && terms.indexOf(term) < 0 && terms.length < MAX_TERMS) terms.push(term);
  };
  const whole = text.trim().replace(/\s+/g, " ");
  if (whole.includes(" ") && whole.length <= 80) add(whole);
  const rest = text.replace(/"([^"]+)"|'([^']+)'|`([^`]+)`/g, (_, a, b, c) => {
    add((a ?? b ?? c ?? "").trim());
    return " ";
  });
  for (const word of rest.split(/[^\p{L}\p{N}_.\/:-]+/u)) add(word.replace(/^[.:\/-]+|[.:\/-]+$/g, ""));
  return terms.length === 0 ? void 0 : { text, terms };
}
var TERM_SCAN_BUDGET = 4e6;
function termsToSearch(result, budget) {
  const terms = budget.focus.terms;
  const s = budget.scans;
  if (s === void 0 || terms.length <= s.from) return terms;
  const per = Math.max(1, result.length);
  const n = s.left <= 0 ? 0 : Math.min(terms.length - s.from, Math.ceil(s.left / per));
  s.left -= n * per;
  return n === terms.length - s.from ? terms : terms.slice(0, s.from + n);
}
function focusExcerpt(result, budget) {
  if (budget.remaining <= 0) return null;
  const terms = termsToSearch(result, budget);
  if (terms.length === 0) return null;
  const lower = result.toLowerCase();
  const byTerm = terms.map((term) => termHits(lower, term)).filter((t) => t.count > 0);
  if (byTerm.length === 0) return null;
  for (const t of byTerm) weigh(result, t);
  const selective = byTerm.filter((t) => t.selective);
  const chosen = selective.length > 0 ? selective : [byTerm.reduce((a, b) => b.count < a.count ? b : a)];
  const hits = [].concat(...chosen.map((t) => t.first)).slice(0, MAX_HITS);
  const wanted = /* @__PURE__ */ new Set();
  for (const h of hits) for (const start of windowStarts(result, lineStartAt(result, h), budget.context)) wanted.add(start);
  const text = Array.from(wanted).sort((a, b) => a - b).map((start) => {
    const end = result.indexOf("\n", start);
    return result.slice(start, end < 0 ? result.length : end);
  }).join("\n");
  const cap = Math.min(budget.perResult, budget.remaining);
  const excerpt = truncate(text, cap);
  budget.remaining -= excerpt.length;
  return FOCUS_EXCERPT_TAG + excerpt;
}
var MAX_HITS = 256;
function linesUpTo(text, limit, end = text.length) {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < end && n < limit; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
function termHits(lower, term) {
  const first = [];
  let i = lower.indexOf(term);
  for (; i >= 0 && first.length < MAX_HITS; i = lower.indexOf(term, i + term.length)) first.push(i);
  return { count: first.length, first, more: i >= 0, selective: false };
}
function weigh(text, t) {
  const count = t.more ? MAX_HITS + 1 : t.count;
  const lines = linesUpTo(text, 5 * count);
  if (!t.more || lines < 5 * count) {
    t.count = Math.min(count, lines + 1);
    if (t.first.length > t.count) t.first = t.first.slice(0, t.count);
    t.selective = t.count <= Math.max(5, lines * 0.2);
    return;
  }
  t.count = count;
  t.selective = linesUpTo(text, 5 * count, t.first[t.first.length - 1]) >= 5 * count;
}
function lineStartAt(text, pos) {
  return pos <= 0 ? 0 : text.lastIndexOf("\n", pos - 1) + 1;
}
function windowStarts(text, start, context) {
  const out = [start];
  for (let k = 0, s = start; k < context && s > 0; k++) out.unshift(s = lineStartAt(text, s - 1));
  for (let k = 0, s = start; k < context; k++) {
    const nl = text.indexOf("\n", s);
    if (nl < 0) break;
    out.push(s = nl + 1);
  }
  return out;
}

// core/parts/tags.ts
var RESULT_TAG = "result: ";
var ASSISTANT_TAG = "assistant: ";
var THINKING_TAG = "thinking: ";

// core/archive.ts
var ARCHIVED_RESULT_OPENING = "result: dropped ";
var ARCHIVED_CALL_OPENING = "call: cut ";
var KEPT_AT = " chars, kept at ";
var MAX_LOCATION = 4096;
var NOT_ONE_LINE = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;
function groupDigits(n) {
  const digits2 = String(Math.floor(Math.abs(n)));
  let out = "";
  for (let i = 0; i < digits2.length; i++) {
    if (i > 0 && (digits2.length - i) % 3 === 0) out += ",";
    out += digits2[i];
  }
  return (n < 0 ? "-" : "") + out;
}
function pointerLine(kind, length, location) {
  return (kind === "result" ? ARCHIVED_RESULT_OPENING : ARCHIVED_CALL_OPENING) + groupDigits(length) + KEPT_AT + location;
}
function archivePointer(archive, text, kind) {
  if (archive === void 0 || text.length === 0) return null;
  let location;
  try {
    location = archive(text, kind);
  } catch {
    return null;
  }
  if (typeof location !== "string" || location === "" || location.length > MAX_LOCATION || NOT_ONE_LINE.test(location) || !isWellFormed(location)) return null;
  return pointerLine(kind, text.length, location);
}
function withPointer(line, pointer) {
  return pointer === null ? line : line === null ? pointer : line + "\n" + pointer;
}
function archiveName(hashHex) {
  return [hashHex.slice(0, 2), hashHex + ".txt"];
}

// core/parts/context.ts
var pointerTo = typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__ ? () => null : archivePointer;
var DecodedJson = class {
  constructor(maxChars = 32e6) {
    this.maxChars = maxChars;
    this.values = /* @__PURE__ */ new Map();
    this.chars = 0;
  }
  /** The decoded value, `undefined` for "not worth decoding", or `NOT_SEEN`. */
  get(content) {
    const v = this.values.get(content);
    return v !== void 0 || this.values.has(content) ? v : NOT_SEEN;
  }
  set(content, value) {
    if (this.chars + content.length > this.maxChars) return;
    this.chars += content.length;
    this.values.set(content, value);
  }
};
var NOT_SEEN = /* @__PURE__ */ Symbol("not seen");

// core/summary.ts
var SUMMARY_HEADER = "The following is a summary of your previous actions (long observations omitted):";
var HEADER_GLUE = "\n\n";
var PART_SEPARATOR = "\n\n---\n\n";
function joinParts(parts) {
  return parts.join(PART_SEPARATOR);
}
function renderSummary(parts) {
  return parts.length === 0 ? SUMMARY_HEADER : SUMMARY_HEADER + HEADER_GLUE + joinParts(parts);
}
function fitSummary(prefix, parts, fits) {
  const glue = prefix === SUMMARY_HEADER ? HEADER_GLUE : PART_SEPARATOR;
  const render2 = (k) => k === 0 ? prefix : prefix + glue + parts.slice(parts.length - k).join(PART_SEPARATOR);
  let lo = 0;
  let hi = parts.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid, () => render2(mid))) lo = mid;
    else hi = mid - 1;
  }
  let text;
  return {
    kept: lo,
    get text() {
      return text ??= render2(lo);
    }
  };
}

// core/parts/content.ts
function contentText(content, types = ["text"]) {
  if (typeof content === "string") return content;
  const out = [];
  for (const b of arr(content)) {
    if (typeof b === "string") out.push(b);
    else {
      const block = obj(b);
      if (types.indexOf(str(block.type)) >= 0 && typeof block.text === "string") out.push(block.text);
    }
  }
  return out.join("\n");
}
function summaryMessageText(message) {
  if (!(typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__) && Array.isArray(obj(message).parts)) return partsText(obj(message));
  return contentText(obj(message).content, ["text", "input_text"]);
}
function partsText(m) {
  if (m.content !== void 0) return contentText(m.content, ["text", "input_text"]);
  return arr(m.parts).map((p) => obj(p).text).filter((t) => typeof t === "string").join("\n");
}
function isSummaryText(text) {
  return typeof text === "string" && text.startsWith(SUMMARY_HEADER);
}
function one(part) {
  return part === null ? [] : [part];
}

// core/parts/glob.ts
var compiled = /* @__PURE__ */ new Map();
function toRegExp(glob, flags) {
  const key = flags + ":" + glob;
  let re = compiled.get(key);
  if (re === void 0) {
    const src = glob.replace(/[\\^$.|+()[\]{}]/g, "\\$&").replace(/\*\*|\*|\?/g, (m) => m === "**" ? ".*" : m === "*" ? "[^/]*" : "[^/]");
    compiled.set(key, re = new RegExp("^" + src + "$", flags));
  }
  return re;
}
function globMatches(text, globs, path) {
  if (typeof text !== "string") return false;
  const base = path ? text.slice(text.lastIndexOf("/") + 1) : text;
  for (const g of globs) if (toRegExp(g, path ? "" : "i").test(path && g.indexOf("/") < 0 ? base : text)) return true;
  return false;
}

// core/parts/result-rules.ts
function pinned(cfg, book, meta) {
  if (cfg.pinMaxChars <= 0 || cfg.keepResultsOf.length === 0 && cfg.keepFiles.length === 0) return false;
  const call = book?.callOf(meta?.callId);
  if (globMatches(meta?.tool ?? call?.name, cfg.keepResultsOf, false)) return true;
  if (call === void 0 || cfg.keepFiles.length === 0) return false;
  for (const p of fileOpsOfCall(call.name, call.args).read) if (globMatches(p, cfg.keepFiles, true)) return true;
  return false;
}
function errorTailTag(exit) {
  return `result (error tail${exit === void 0 ? "" : ", exit " + exit}): `;
}
var LEADING_EXIT = /^(?:<returncode>(-?\d{1,4})<\/returncode>|(?:Exit code: |Process exited with code )(-?\d{1,4})\n)/;
var TRAILING_EXIT = /(?:Command exited with code (\d{1,4})|\[Command finished with exit code (-?\d{1,4})\]|\[The command completed with exit code (-?\d{1,4})\.\])$/;
var JSON_EXIT = /"metadata":\{"exit_code":(-?\d{1,4})[,}]/;
var EXIT_WINDOW = 200;
var code = (m) => {
  if (m !== null) {
    for (let i = 1; i < m.length; i++) if (m[i] !== void 0) return Number(m[i]);
  }
  return void 0;
};
function statedExitCode(text) {
  const tail = text.slice(-EXIT_WINDOW);
  return code(LEADING_EXIT.exec(text)) ?? code((text.startsWith('{"output":') ? JSON_EXIT : TRAILING_EXIT).exec(tail));
}
function failure(text, meta) {
  const exit = meta?.exitCode ?? statedExitCode(text);
  if (meta?.error === true || exit !== void 0 && exit !== 0) return { exit };
  return null;
}
function lastLines(text, cap) {
  if (text.length <= cap) return text;
  let start = text.length;
  for (let nl = text.lastIndexOf("\n"); nl >= 0 && text.length - (nl + 1) <= cap; nl = nl === 0 ? -1 : text.lastIndexOf("\n", nl - 1)) start = nl + 1;
  if (start < text.length) return text.slice(start);
  let cut = text.length - cap;
  const c = text.charCodeAt(cut);
  if (c >= 56320 && c <= 57343) cut++;
  return ELLIPSIS + text.slice(cut);
}

// core/shapes/file-calls.ts
var WHOLE_WRITE_TOOLS = new Set("write write_file create_file".split(" "));
var PATH_KEYS = ["file_path", "path", "filePath", "filename"];
var ADD_FILE = /^\*\*\* Add File: (.+)$/gm;
var CAT_TO = /\bcat\s+>\s*(['"]?)([^\s'"<>|;&]+)\1\s*<<-?\s*['"]?\w+/g;
var CAT_FROM = /\bcat\s+<<-?\s*['"]?\w+['"]?\s*>\s*(['"]?)([^\s'"<>|;&]+)\1/g;
var TEE = /\btee\s+(['"]?)([^\s'"<>|;&-][^\s'"<>|;&]*)\1\s*<<-?\s*['"]?\w+/g;
var HERE_STRING = /^['"]@\s*\|\s*(?:Set-Content|Out-File)\s+(?:-(?:Path|FilePath|LiteralPath)\s+)?(['"]?)([^\s'"|;]+)\1/gm;
var SHELL_READ = /^\s*(?:cd\s+\S+\s*&&\s*)?(?:cat|nl\s+-ba|Get-Content(?:\s+-Raw)?(?:\s+-Path)?)\s+(['"]?)([^\s'"|;&<>]+)\1\s*$/;
function matches(re, text, group) {
  const out = [];
  for (const m of text.matchAll(re)) out.push(m[group].trim());
  return out;
}
function shellText(args) {
  const c = args.command ?? args.cmd;
  return isArray(c) ? str(c[c.length - 1]) : str(c);
}
function wholeWritePaths(name, rawArgs) {
  const tool = str(name).toLowerCase();
  const args = argsObject(rawArgs);
  if (WHOLE_WRITE_TOOLS.has(tool)) return PATH_KEYS.map((k) => args[k]).filter((p) => typeof p === "string" && p !== "").slice(0, 1);
  if (EDITOR_TOOLS.has(tool)) return args.command === "create" && typeof args.path === "string" ? [args.path] : [];
  if (PATCH_TOOLS.has(tool)) return matches(ADD_FILE, [args.input, args.patch, shellText(args)].map((v) => str(v)).join("\n"), 1);
  if (!SHELL_TOOLS.has(tool)) return [];
  const text = shellText(args);
  if (text.indexOf("\n") < 0) return [];
  return [...matches(ADD_FILE, text, 1), ...matches(CAT_TO, text, 2), ...matches(CAT_FROM, text, 2), ...matches(TEE, text, 2), ...matches(HERE_STRING, text, 2)];
}
function readPath(name, rawArgs) {
  const tool = str(name).toLowerCase();
  if (SHELL_TOOLS.has(tool)) {
    const m = SHELL_READ.exec(shellText(argsObject(rawArgs)));
    return m === null ? null : m[2];
  }
  const read2 = fileOpsOfCall(name, rawArgs).read;
  return read2.length === 1 ? read2[0] : null;
}

// core/parts/signature.ts
function editLines(name, args, ctx) {
  const cap = ctx.cfg.editMaxChars;
  if (cap <= 0) return null;
  const edit = editTextOf(name, args);
  if (edit === null) return null;
  const whole = edit.texts.join("\n");
  const text = truncate(whole, cap);
  const line = `[${typeof name === "string" && name !== "" ? name : "?"}] ` + (edit.path === null ? text : edit.path + "\n" + text);
  return whole.length <= cap ? line : withPointer(line, callPointer(args, ctx.archive));
}
function callPointer(args, archive) {
  if (archive === void 0) return null;
  return pointerTo(archive, typeof args === "string" ? args : flatCanonical(args, 0) ?? canonicalJson(args), "call");
}
function signatureLine(name, args, ctx) {
  return cappedSignature(name, args, ctx.cfg.cmdMaxChars, ctx.archive);
}
function cappedSignature(name, args, cap, archive) {
  const text = typeof args === "string" ? args : args === void 0 ? "" : flatCanonical(args, cap) ?? canonicalJson(args, cap);
  const label = typeof name === "string" && name !== "" ? name : "?";
  const line = `[${label}] ${truncate(text, cap)}`;
  if (archive === void 0 || !(cap > 0) || text.length <= cap) return line;
  return withPointer(line, callPointer(args, archive));
}
function flatCanonical(args, cap) {
  if (args === null || typeof args !== "object" || isArray(args) || getPrototypeOf(args) !== OBJECT_PROTOTYPE) return void 0;
  const keys = objectKeys(args);
  if (keys.length > 16) return void 0;
  let size = 0;
  for (const k of keys) {
    const v = args[k];
    if (v !== null && typeof v === "object") return void 0;
    if (typeof v === "string") size += v.length;
    if (k === "__proto__" || typeof v === "bigint") return void 0;
  }
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1] < keys[i];
  const limit = cap > 0 ? cap : Infinity;
  if (sorted && size <= limit) return jsonStringify(args);
  if (!sorted) keys.sort();
  let out = "{";
  for (const k of keys) {
    const v = args[k];
    if (v === void 0 || typeof v === "function" || typeof v === "symbol") continue;
    out += (out.length > 1 ? "," : "") + jsonStringify(k) + ":";
    if (typeof v === "string" && v.length > limit - out.length + 2) return out + stringPrefixJson(v, limit - out.length);
    out += typeof v === "number" && !isFinite(v) ? "null" : jsonStringify(v);
    if (out.length > limit) return out;
  }
  return out + "}";
}

// core/shapes/outline.ts
var OUTLINE_TAG = "[outline] ";
var LINE_MAX = 160;
var TEST_MAX = 400;
var SCAN_MAX = 1e6;
var TS_JS = [
  /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|type|enum|namespace|module)\s+[\w$]/,
  /^\s*(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s+[\w$]+\s*(?::[^=]*)?=\s*(?:async\s+)?(?:\([^)]*\)|[\w$]+)\s*(?::[^=]*)?=>/,
  /^(?:export\s+)(?:declare\s+)?(?:const|let|var)\s+[\w$]/,
  /^(?:const|let|var)\s+[A-Z][A-Z0-9_]+\s*=/,
  /^\s*export\s+(?:default\s+|\*|\{)/,
  /^\s+(?:[a-z]+\s+)*[\w$#]+\s*(?:<[^>]*>)?\([^)]*\)\s*(?::\s*[^={;]+)?\{\s*$/,
  /^\s+(?:private|public|protected|readonly|static)\s[^(]*[:=]/
];
var PYTHON = [/^\s*(?:async\s+)?def\s+\w/, /^\s*class\s+\w/, /^[A-Z][A-Z0-9_]*\s*(?::[^=]*)?=/, /^@\w/];
var RUST = [/^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+|const\s+|unsafe\s+|extern\s+"[^"]*"\s+)*(?:fn|struct|enum|trait|impl|mod|type|const|static|union|macro_rules!)\b/];
var GO = [/^func\s/, /^type\s+\w/, /^(?:const|var)\s+(?:\w|\()/, /^\t\w+\s+(?:struct|interface)\s*\{/];
var JAVA_KOTLIN = [
  /^\s*(?:@\w+\s+)*(?:[a-z]+\s+)*(?:class|interface|enum|record|object|fun|typealias)\s+[\w<`]/,
  /^\s*(?:[a-z]+\s+)*(?:val|var)\s+\w+\s*[:=]/
];
var C_CPP = [
  /^\s*(?:typedef\s+)?(?:struct|class|enum|union|namespace)\s+\w+[^;]*$/,
  /^#\s*define\s+\w/,
  /^(?:static\s+|inline\s+|extern\s+|virtual\s+|constexpr\s+|const\s+|unsigned\s+|signed\s+)*[A-Za-z_][\w:<>,*& ]*[\s*&]\**[A-Za-z_][\w:~]*\s*\([^;]*\)\s*(?:const\s*)?(?:override\s*)?\{?\s*$/,
  /^\s*template\s*</
];
var SHELL = [/^\s*(?:function\s+)?[A-Za-z_][\w:.-]*\s*\(\)\s*\{?/, /^\s*function\s+[A-Za-z_][\w:.-]*/, /^(?:export\s+|readonly\s+|declare\s+(?:-\w+\s+)?)?[A-Z_][A-Z0-9_]*=/];
var SQL = [/^\s*(?:create|alter)\s+(?:or\s+replace\s+)?(?:temporary\s+|temp\s+|unique\s+|materialized\s+)*(?:table|view|index|function|procedure|trigger|type|schema|sequence|extension|policy)\b/i];
var CSS = [/^[^\s{}@/*][^{};]*\{\s*$/, /^@(?:media|keyframes|font-face|supports|layer|import|tailwind)\b/, /^\s*--[\w-]+\s*:/];
var JSON_KEYS = [/^(?: {2}|\t)"[^"]*"\s*:/];
var YAML = [/^[A-Za-z_"'][^:#]*:(?:\s|$)/, /^-\s+[A-Za-z_"'][^:#]*:(?:\s|$)/];
var MARKDOWN = [/^#{1,6}\s+\S/];
var GENERIC = [...TS_JS, ...PYTHON, ...RUST, ...GO, ...MARKDOWN];
var BY_EXTENSION = {
  ts: TS_JS,
  tsx: TS_JS,
  mts: TS_JS,
  cts: TS_JS,
  js: TS_JS,
  jsx: TS_JS,
  mjs: TS_JS,
  cjs: TS_JS,
  vue: TS_JS,
  svelte: TS_JS,
  py: PYTHON,
  pyi: PYTHON,
  rs: RUST,
  go: GO,
  java: JAVA_KOTLIN,
  kt: JAVA_KOTLIN,
  kts: JAVA_KOTLIN,
  scala: JAVA_KOTLIN,
  swift: JAVA_KOTLIN,
  cs: JAVA_KOTLIN,
  c: C_CPP,
  h: C_CPP,
  cc: C_CPP,
  cpp: C_CPP,
  cxx: C_CPP,
  hpp: C_CPP,
  hh: C_CPP,
  hxx: C_CPP,
  m: C_CPP,
  mm: C_CPP,
  sh: SHELL,
  bash: SHELL,
  zsh: SHELL,
  ksh: SHELL,
  sql: SQL,
  css: CSS,
  scss: CSS,
  sass: CSS,
  less: CSS,
  json: JSON_KEYS,
  jsonc: JSON_KEYS,
  yaml: YAML,
  yml: YAML,
  md: MARKDOWN,
  mdx: MARKDOWN,
  markdown: MARKDOWN,
  rst: MARKDOWN
};
function patternsFor(path) {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return (dot > 0 ? BY_EXTENSION[base.slice(dot + 1).toLowerCase()] : void 0) ?? GENERIC;
}
function outlineLines(path, text, maxChars, patch = false) {
  const patterns = patternsFor(path);
  const out = [];
  let used = 0;
  const stop = Math.min(text.length, SCAN_MAX);
  for (let start = 0; start < stop && used < maxChars; ) {
    let end = text.indexOf("\n", start);
    if (end < 0 || end > stop) end = stop;
    if (end - start > TEST_MAX + 1) {
      start = end + 1;
      continue;
    }
    let line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    if (patch) {
      if (line.charCodeAt(0) !== 43 || line.startsWith("+++")) continue;
      line = line.slice(1);
    }
    if (line.trim().length < 3 || !patterns.some((p) => p.test(line))) continue;
    const kept = toWellFormed(line.length > LINE_MAX ? line.slice(0, LINE_MAX) : line);
    if (used + kept.length + 1 > maxChars) break;
    out.push(kept);
    used += kept.length + 1;
  }
  return out;
}
function outlinePart(path, text, maxChars, patch = false) {
  const lines = outlineLines(path, text, maxChars, patch);
  return lines.length === 0 ? null : OUTLINE_TAG + path + "\n" + lines.join("\n");
}

// core/shapes/file-outline.ts
function outliner(caps) {
  let used = 0;
  return (copies, cutOnly) => {
    if (caps === null) return null;
    const parts = [];
    for (const c of copies) {
      if (c.text === void 0 || used >= caps.total) continue;
      const rest = cutOnly ? c.text.slice(c.shown ?? 0) : c.text;
      const p = rest.length === 0 ? null : outlinePart(c.path, rest, Math.min(caps.file, caps.total - used), c.patch === true);
      if (p === null) continue;
      used += p.length;
      if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) caps.note?.("outline", p);
      parts.push(p);
    }
    return parts.length === 0 ? null : parts.join("\n");
  };
}
function writtenText(path, name, args) {
  const edit = editTextOf(name, args);
  if (edit === null) return null;
  const text = edit.texts.join("\n");
  const header = "*** Add File: " + path;
  const at = text.indexOf(header);
  if (at < 0) return { text, patch: false };
  const from = at + header.length;
  const next = text.indexOf("\n*** ", from);
  return { text: text.slice(from, next < 0 ? text.length : next), patch: true };
}

// core/parts/working-set.ts
var CopyBook = class {
  constructor() {
    this.byAt = /* @__PURE__ */ new Map();
  }
  note(copy, making) {
    let at = this.byAt.get(copy.at);
    if (at === void 0 || at.making !== making) this.byAt.set(copy.at, at = { making, list: [], paths: /* @__PURE__ */ new Map() });
    let paths = at.paths.get(copy.full);
    if (paths === void 0) at.paths.set(copy.full, paths = /* @__PURE__ */ new Set());
    if (paths.has(copy.path)) return;
    paths.add(copy.path);
    at.list.push(copy);
  }
  get size() {
    return this.byAt.size;
  }
  /**
   * The copies before `end` that fall back, by body index: a line falls back when every file it
   * holds a copy of has a newer copy (superseded), or when it is beyond the total cap, newest first.
   * With outline caps, a newest copy beyond the total cap falls back to its line and its file's
   * outline, and one kept only in part is followed by the outline of the rest, newest first.
   */
  fallbacks(end, totalMax, asked, outline = null) {
    const at = [...this.byAt.keys()].filter((i) => i < end).sort((a, b) => b - a);
    const seen = /* @__PURE__ */ new Set();
    const out = /* @__PURE__ */ new Map();
    const add = (i, c) => void (out.get(i) ?? out.set(i, []).get(i)).push(c);
    let used = 0;
    const outlineOf = outliner(outline);
    for (const i of at) {
      const lines = /* @__PURE__ */ new Map();
      for (const c of this.byAt.get(i).list) {
        const same = lines.get(c.full);
        if (same === void 0) lines.set(c.full, [c]);
        else same.push(c);
      }
      for (const [full, copies] of lines) {
        const fresh = copies.filter((c) => !seen.has(c.path));
        for (const c of copies) seen.add(c.path);
        if (fresh.length > 0 && used + full.length <= totalMax) {
          used += full.length;
          const cut = fresh.filter((c) => c.text !== void 0 && c.shown !== void 0 && c.shown < c.text.length);
          const more = cut.length === 0 ? null : outlineOf(cut, true);
          if (more !== null) add(i, { ...copies[0], fallback: full + "\n" + more });
          continue;
        }
        if (fresh.length > 0 && asked !== void 0 && asked.budget.used + full.length <= asked.budget.max && copies.some((c) => asked.repeated(c.path))) {
          asked.budget.used += full.length;
          continue;
        }
        const o = fresh.length === 0 ? null : outlineOf(fresh, false);
        add(i, o === null ? copies[0] : { ...copies[0], fallback: copies[0].fallback === null ? o : copies[0].fallback + "\n" + o });
      }
    }
    return out;
  }
};
var COPIES = /* @__PURE__ */ new WeakMap();
function copiesOf(book) {
  let c = COPIES.get(book);
  if (c === void 0) COPIES.set(book, c = new CopyBook());
  return c;
}
function settleCopies(book, end, totalMax, asked, outline = null) {
  const fallbacks = copiesOf(book).fallbacks(end, totalMax, asked, outline);
  return byFallbacks(fallbacks);
}
function byFallbacks(fallbacks) {
  return (i, parts) => {
    const fell = fallbacks.get(i);
    return fell === void 0 ? parts : applyFallbacks(parts, fell);
  };
}
var PartCuts = class {
  constructor() {
    this.list = [];
    this.byStart = /* @__PURE__ */ new Map();
    this.byEnd = /* @__PURE__ */ new Map();
    this.reach = 0;
  }
  // the end of the furthest cut: a cut past it overlaps none
  add(c) {
    this.list.push(c);
    this.byStart.set(c.start, c);
    this.byEnd.set(c.end, c);
    this.reach = Math.max(this.reach, c.end);
  }
  overlaps(c) {
    return c.start < this.reach && this.list.some((x) => x.start < c.end && c.start < x.end);
  }
  /** Where the newline just before `pos` stands in the part as it now stands, if one does (-1: none, or one a fallback wrote). */
  newlineBefore(p, pos) {
    for (let c = this.byEnd.get(pos); c !== void 0; c = this.byEnd.get(pos)) {
      if (c.text !== "") return -1;
      pos = c.start;
    }
    return pos > 0 && p[pos - 1] === "\n" ? pos - 1 : -1;
  }
  newlineAfter(p, pos) {
    for (let c = this.byStart.get(pos); c !== void 0; c = this.byStart.get(pos)) {
      if (c.text !== "") return -1;
      pos = c.end;
    }
    return p[pos] === "\n" ? pos : -1;
  }
};
function cutLine(p, at, c, cuts) {
  const end = at + c.full.length;
  if (cuts.overlaps({ start: at, end, text: "" })) return;
  if (c.fallback !== null) return cuts.add({ start: at, end, text: c.fallback });
  cuts.add({ start: at, end, text: "" });
  const before = cuts.newlineBefore(p, at);
  const after = before < 0 ? cuts.newlineAfter(p, end) : -1;
  const nl = before >= 0 ? before : after;
  if (nl >= 0) cuts.add({ start: nl, end: nl + 1, text: "" });
}
function applyCuts(p, cuts) {
  cuts.sort((a, b) => a.start - b.start);
  let out = "";
  let from = 0;
  for (const c of cuts) {
    out += p.slice(from, c.start) + c.text;
    from = c.end;
  }
  return out + p.slice(from);
}
function applyFallbacks(parts, copies) {
  const out = parts.slice();
  const whole = /* @__PURE__ */ new Map();
  out.forEach((p, k) => (whole.get(p) ?? whole.set(p, []).get(p)).push(k));
  const removed = /* @__PURE__ */ new Set();
  const cuts = /* @__PURE__ */ new Map();
  let last = -1;
  let cursor = 0;
  for (const c of copies) {
    const own = whole.get(c.full)?.shift();
    if (own !== void 0) {
      if (c.fallback === null) removed.add(own);
      else out[own] = c.fallback;
      continue;
    }
    let at = last >= 0 ? out[last].indexOf(c.full, cursor) : -1;
    const k = at >= 0 ? last : out.findIndex((p, j) => !removed.has(j) && (at = p.indexOf(c.full)) >= 0);
    if (k < 0) continue;
    cutLine(out[k], at, c, cuts.get(k) ?? cuts.set(k, new PartCuts()).get(k));
    [last, cursor] = [k, at + c.full.length];
  }
  for (const [k, list] of cuts) {
    out[k] = applyCuts(out[k], list.list);
    if (out[k] === "") removed.add(k);
  }
  return removed.size === 0 ? out : out.filter((_, k) => !removed.has(k));
}
function workingSetRead(text, clean, ctx, meta, part) {
  const book = ctx.book;
  const call = book?.callOf(meta?.callId);
  const path = call === void 0 ? null : readPath(call.name, call.args);
  if (book === void 0 || path === null) return part;
  const cap = ctx.cfg.workingSetFileMaxChars;
  const full = withPointer(toWellFormed(RESULT_TAG + truncate(clean, cap)), clean.length > cap ? pointerTo(ctx.archive, text, "result") : null);
  copiesOf(book).note({ at: book.at, path, full, fallback: part, text: clean, shown: cap }, book.making);
  if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("working-set", full);
  return full;
}
function workingSetWrite(line, name, args, ctx) {
  const book = ctx.book;
  const paths = book === void 0 ? [] : wholeWritePaths(name, args);
  if (book === void 0 || paths.length === 0) return line;
  const fallback = signatureLine(name, args, ctx);
  if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("call", fallback);
  const cap = ctx.cfg.editMaxChars;
  for (const path of paths) {
    const w = writtenText(path, name, args);
    copiesOf(book).note({ at: book.at, path, full: line, fallback, text: w?.text, shown: cap, patch: w?.patch }, book.making);
  }
  return line;
}

// core/retention/distinctive.ts
var JSON_ESCAPE = /\\(?:u[0-9a-fA-F]{4}|[nrt"\\/])/g;
var RUN = /[A-Za-z0-9_./:-]+/g;
var EDGES = /^:+|[.:]+$/g;
var NUMERIC = /^[0-9.,:-]+$/;
var MARK = /[0-9_./:-]/;
var ALNUM = /[A-Za-z0-9]/;
var LOWER = /[a-z]/;
var INNER_CAPITAL = /^.+[A-Z]/;
function isDistinctive(token) {
  if (!ALNUM.test(token)) return false;
  if (NUMERIC.test(token)) return digits(token) >= 3;
  return MARK.test(token) || LOWER.test(token) && INNER_CAPITAL.test(token);
}
function digits(token) {
  let n = 0;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}
function addDistinctive(text, into) {
  const clean = text.indexOf("\\") < 0 ? text : text.replace(JSON_ESCAPE, " ");
  const runs = clean.match(RUN);
  if (runs === null) return into;
  for (const run of runs) {
    const token = run.replace(EDGES, "");
    if (token !== "" && isDistinctive(token)) into.add(token);
  }
  return into;
}

// core/parts/back-refs.ts
var BACK_REF_TAG = "result (named later): ";
var REACH = 8;
var MAX_TERMS2 = 40;
var MIN_TERM = 4;
var DROPPED = /* @__PURE__ */ new WeakMap();
function noteDropped(book, clean) {
  let m = DROPPED.get(book);
  if (m === void 0) DROPPED.set(book, m = /* @__PURE__ */ new Map());
  const l = m.get(book.at);
  if (l === void 0) m.set(book.at, [clean]);
  else if (l.indexOf(clean) < 0) l.push(clean);
}
function backRefs(book, end, made, isModel2, cfg, note) {
  const dropped2 = DROPPED.get(book);
  if (dropped2 === void 0) return null;
  const words2 = /* @__PURE__ */ new Map();
  const termsOf = (j) => {
    let w = words2.get(j);
    if (w === void 0) {
      const set = /* @__PURE__ */ new Set();
      for (const p of made[j]) addDistinctive(p, set);
      w = [];
      for (const t of set) if (t.length >= MIN_TERM) w.push(t.toLowerCase());
      words2.set(j, w);
    }
    return w;
  };
  const out = /* @__PURE__ */ new Map();
  let remaining = cfg.backRefTotalMaxChars;
  const scans = { left: TERM_SCAN_BUDGET, from: 0 };
  const at = [...dropped2.keys()].filter((i) => i < end).sort((a, b) => b - a);
  for (const i of at) {
    if (remaining <= 0) break;
    const terms = [];
    for (let j = i + 1, seen = 0; j < end && seen < REACH && terms.length < MAX_TERMS2; j++) {
      if (!isModel2(j)) continue;
      seen++;
      for (const t of termsOf(j)) if (terms.length < MAX_TERMS2 && terms.indexOf(t) < 0) terms.push(t);
    }
    if (terms.length === 0) continue;
    for (const text of dropped2.get(i)) {
      const budget = { focus: { text: "", terms }, perResult: cfg.backRefMaxChars, remaining, context: cfg.focusContextLines, scans };
      const ex = focusExcerpt(text, budget);
      if (ex === null) continue;
      remaining = budget.remaining;
      const line = toWellFormed(BACK_REF_TAG + ex.slice(FOCUS_EXCERPT_TAG.length));
      if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) note?.("back-ref", line);
      (out.get(i) ?? out.set(i, []).get(i)).push(line);
    }
  }
  return (i, parts) => {
    const add = out.get(i);
    if (add === void 0) return parts;
    const fresh = add.filter((a) => !parts.some((p) => p.indexOf(a.slice(BACK_REF_TAG.length)) >= 0));
    return fresh.length === 0 ? parts : parts.concat(fresh);
  };
}

// core/shapes/listing.ts
var LISTING_TAG = "result (paths): ";
var SAMPLE_LINES = 200;
var MIN_SHARE = 0.6;
var MIN_LINES = 4;
var LINE_MAX2 = 400;
var SCAN_MAX2 = 1e6;
var PATH = String.raw`(?:\.{0,2}/)?(?:[\w@+.-]+/)+[\w@+.-]*|[\w@+-][\w@+-]*(?:\.[\w@+-]+)*\.[A-Za-z][A-Za-z0-9]{0,9}`;
var HIT = new RegExp(String.raw`^(${PATH}):(\d+)(?::\d+)?[:-]|^(${PATH})-(\d+)-`);
var GREP = new RegExp(String.raw`^(${PATH}):\S`);
var ALONE = new RegExp(String.raw`^\s*(?:(?:[MADRCU?!]{1,2}|modified:|new file:|deleted:|renamed:|both modified:)\s+)?(${PATH})/?\s*$`);
function entryOf(line) {
  if (line.indexOf("/") < 0 && line.indexOf(".") < 0) return null;
  const hit = HIT.exec(line);
  if (hit !== null) return hit[1] !== void 0 ? { path: hit[1], anchor: `${hit[1]}:${hit[2]}` } : { path: hit[3], anchor: null };
  const alone = ALONE.exec(line);
  if (alone !== null) return { path: alone[1], anchor: null };
  const grep = GREP.exec(line);
  return grep === null ? null : { path: grep[1], anchor: null };
}
function eachLine(text, each) {
  const stop = Math.min(text.length, SCAN_MAX2);
  for (let start = 0; start < stop; ) {
    let end = text.indexOf("\n", start);
    if (end < 0 || end > stop) end = stop;
    const line = end - start > LINE_MAX2 ? null : text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    if (!each(line)) return;
  }
}
function isListing(text) {
  let lines = 0;
  let matched = 0;
  eachLine(text, (line) => {
    if (line !== null && (line.trim() === "" || line === "--")) return true;
    lines++;
    if (line !== null && entryOf(line) !== null) matched++;
    return lines < SAMPLE_LINES && lines - matched <= SAMPLE_LINES * (1 - MIN_SHARE);
  });
  return lines >= MIN_LINES && matched >= lines * MIN_SHARE;
}
function listingPart(text, maxChars) {
  if (maxChars <= 0 || !isListing(text)) return null;
  const paths = [];
  const anchors = [];
  const seen = /* @__PURE__ */ new Set();
  let size = 0;
  eachLine(text, (line) => {
    const e = line === null ? null : entryOf(line);
    if (e === null) return true;
    if (!seen.has(e.path)) {
      seen.add(e.path);
      paths.push(e.path);
      size += e.path.length + 1;
    }
    if (e.anchor !== null && !seen.has(e.anchor)) {
      seen.add(e.anchor);
      anchors.push(e.anchor);
    }
    return size < maxChars;
  });
  const kept = [];
  let used = LISTING_TAG.length;
  for (const item of paths.concat(anchors)) {
    if (used + item.length + 1 > maxChars) break;
    kept.push(item);
    used += item.length + 1;
  }
  return kept.length === 0 ? null : toWellFormed(LISTING_TAG + kept.join("\n"));
}

// core/repeats/call-key.ts
var SED_RANGE = /^\s*(?:cd\s+\S+\s*&&\s*)?sed\s+-n\s+(['"]?)[\d,$]+p\1\s+(['"]?)([^\s'"|;&<>]+)\2\s*$/;
var SHELL_TOOLS2 = /* @__PURE__ */ new Set("shell shell_command exec exec_command local_shell local_shell_call container.exec bash execute_bash run_command run_shell_command terminal".split(" "));
function shellText2(args) {
  const c = args.command ?? args.cmd;
  return isArray(c) ? str(c[c.length - 1]) : str(c);
}
function readOf(name, args) {
  const path = readPath(name, args);
  if (path !== null) return path;
  if (!SHELL_TOOLS2.has(str(name).toLowerCase())) return null;
  const m = SED_RANGE.exec(shellText2(argsObject(args)));
  return m === null ? null : m[3];
}
function normal(v, depth = 0) {
  if (typeof v === "string") return v.replace(/\s+/g, " ").trim();
  if (depth > 32) return null;
  if (isArray(v)) return v.map((x) => normal(x, depth + 1));
  if (!isObj(v)) return v;
  const out = {};
  for (const k of Object.keys(v).sort()) out[k] = normal(v[k], depth + 1);
  return out;
}
var READ_KEY = "read\0";
function callKey(name, args) {
  const tool = str(name).toLowerCase();
  if (tool === "") return "";
  const path = readOf(name, args);
  if (path !== null) return READ_KEY + path.replace(/^\.\//, "");
  return "call\0" + tool + "\0" + JSON.stringify(normal(argsObject(args)));
}
function readKeyPath(key) {
  return key.startsWith(READ_KEY) ? key.slice(READ_KEY.length) : null;
}

// core/repeats/asked-twice.ts
var AskedBook = class {
  constructor() {
    this.keysAt = /* @__PURE__ */ new Map();
    this.copies = new CopyBook();
  }
};
var BOOKS = /* @__PURE__ */ new WeakMap();
function askedOf(book) {
  let a = BOOKS.get(book);
  if (a === void 0) BOOKS.set(book, a = new AskedBook());
  return a;
}
var askedTwiceOn = (cfg) => cfg.askedTwiceMaxChars > 0 && cfg.askedTwiceTotalMaxChars > 0;
function setPriorCalls(book, prior) {
  askedOf(book).prior = prior;
}
function noteAskedCall(book, name, args) {
  const key = callKey(name, args);
  if (key === "") return;
  const a = askedOf(book);
  const list = a.keysAt.get(book.at);
  if (list === void 0) a.keysAt.set(book.at, [key]);
  else if (list.indexOf(key) < 0) list.push(key);
}
function askedTwiceResult(text, clean, ctx, meta, part, kept) {
  const book = ctx.book;
  if (book === void 0 || kept !== part) return kept;
  const call = book.callOf(meta?.callId);
  const key = call === void 0 ? "" : callKey(call.name, call.args);
  if (key === "") return kept;
  const cap = ctx.cfg.askedTwiceMaxChars;
  const full = withPointer(toWellFormed(RESULT_TAG + truncate(clean, cap)), clean.length > cap ? pointerTo(ctx.archive, text, "result") : null);
  if (full === kept) return kept;
  askedOf(book).copies.note({ at: book.at, path: key, full, fallback: kept }, book.making);
  if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("asked-twice", full);
  return full;
}
function repeatedKeys(book, end, prior) {
  let counts = null;
  return (key) => {
    if (counts === null) {
      counts = new Map(prior ?? []);
      for (const [at, keys] of askedOf(book).keysAt) if (at < end) for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    return (counts.get(key) ?? 0) >= 2;
  };
}
var readKeyOf = (path) => READ_KEY + path.replace(/^\.\//, "");
function askedSettling(book, end, cfg) {
  if (book === void 0) return null;
  const repeated = repeatedKeys(book, end, askedOf(book).prior);
  const budget = { used: 0, max: cfg.askedTwiceTotalMaxChars };
  let settle = null;
  return {
    overflow: { repeated: (path) => repeated(readKeyOf(path)), budget },
    // Settled when first asked, after the working set's settling has drawn on the budget.
    settle: (i, parts) => (settle ??= byFallbacks(askedOf(book).copies.fallbacks(end, 0, { repeated, budget })))(i, parts)
  };
}

// core/parts/result.ts
function humanPart(tag, text, ctx, dropSummary = true) {
  if (dropSummary && isSummaryText(text)) return null;
  const clean = strip(stripTaskNotifications(text));
  if (clean === "") return null;
  const part = toWellFormed(`${tag}: ${truncate(clean, ctx.cfg.humanMaxChars)}`);
  if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.(tag === "user" ? "user" : "system", part);
  return part;
}
function resultPart(text, ctx, meta) {
  if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.onResult?.(text, meta);
  const clean = strip(text);
  if (clean.length === 0) return null;
  if (clean.length <= ctx.cfg.resultMaxChars) {
    const whole = toWellFormed(RESULT_TAG + clean);
    if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("result", whole);
    return whole;
  }
  const part = longResultPart(text, clean, ctx, meta);
  const kept = typeof __CLIFF_WORKING_SET__ !== "undefined" && !__CLIFF_WORKING_SET__ || ctx.cfg.workingSetFileMaxChars <= 0 ? part : workingSetRead(text, clean, ctx, meta, part);
  return !(typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) && askedTwiceOn(ctx.cfg) ? askedTwiceResult(text, clean, ctx, meta, part, kept) : kept;
}
function longResultPart(text, clean, ctx, meta) {
  const kept = keptLongResult(clean, ctx, meta);
  if (kept !== null) return withPointer(toWellFormed(kept.line), kept.cut ? pointerTo(ctx.archive, text, "result") : null);
  if (!(typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__) && ctx.cfg.backRefMaxChars > 0 && ctx.book !== void 0) noteDropped(ctx.book, clean);
  const excerpt = ctx.focus === void 0 ? null : toWellFormed(focusExcerpt(clean, ctx.focus) ?? "") || null;
  if ((typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) && excerpt !== null) ctx.note?.("focus", excerpt);
  const listing = typeof __CLIFF_LISTINGS__ !== "undefined" && !__CLIFF_LISTINGS__ || ctx.cfg.listingMaxChars <= 0 ? null : listingPart(clean, ctx.cfg.listingMaxChars);
  if ((typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) && listing !== null) ctx.note?.("listing", listing);
  const shown = listing === null ? excerpt : excerpt === null ? listing : listing + "\n" + excerpt;
  return withPointer(shown, pointerTo(ctx.archive, text, "result"));
}
function keptLongResult(clean, ctx, meta) {
  const pinCap = ctx.cfg.pinMaxChars;
  if (pinned(ctx.cfg, ctx.book, meta)) {
    const line = RESULT_TAG + truncate(clean, pinCap);
    if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("pinned", line);
    return { line, cut: clean.length > pinCap };
  }
  const tailCap = ctx.cfg.errorTailMaxChars;
  if (tailCap > 0) {
    const failed = failure(clean, meta);
    if (failed === null) return null;
    const line = errorTailTag(failed.exit) + lastLines(clean, tailCap);
    if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("error-tail", line);
    return { line, cut: clean.length > tailCap };
  }
  return null;
}

// core/parts/assistant.ts
var AssistantPart = class {
  constructor(ctx) {
    this.ctx = ctx;
    // Made on first use: most messages fill one of the three, and a long history has many messages.
    this.thinking = null;
    this.visible = null;
    this.lines = null;
    /** The message's newest plan call, kept apart: only the newest plan of the span is kept. */
    this.plan = null;
  }
  addThinking(text) {
    if (this.ctx.cfg.keepThinking && typeof text === "string" && !isBlank(text)) (this.thinking ??= []).push(text);
  }
  addText(text) {
    if (typeof text === "string" && !isBlank(text)) (this.visible ??= []).push(text);
  }
  addCall(name, args, id) {
    const ctx = this.ctx;
    ctx.onCall?.(name, args);
    ctx.book?.record(id, name, args);
    if (!(typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) && ctx.book !== void 0 && askedTwiceOn(ctx.cfg)) noteAskedCall(ctx.book, name, args);
    const planCap = ctx.cfg.planMaxChars;
    if (planCap > 0 && isPlanCall(name, args)) {
      this.plan = cappedSignature(name, args, planCap, ctx.archive);
      if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("plan", this.plan);
      return;
    }
    const edit = editLines(name, args, ctx);
    const line = edit ?? signatureLine(name, args, ctx);
    if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.(edit === null ? "call" : "edit", line);
    if (edit === null) (this.lines ??= []).push(line);
    else if (typeof __CLIFF_WORKING_SET__ !== "undefined" && !__CLIFF_WORKING_SET__ || ctx.cfg.workingSetFileMaxChars <= 0) (this.lines ??= []).push(edit);
    else (this.lines ??= []).push(workingSetWrite(edit, name, args, ctx));
  }
  addResult(text, meta) {
    const part = resultPart(text, this.ctx, meta);
    if (part !== null) (this.lines ??= []).push(part);
  }
  /** The part as a list ([] when the message had nothing to keep), then its plan, noted in the book. */
  parts() {
    const out = one(this.build());
    if (this.plan !== null) {
      this.ctx.book?.notePlan();
      out.push(toWellFormed(this.plan));
    }
    return out;
  }
  /** The part, or null when the message had nothing to keep. */
  build() {
    const cfg = this.ctx.cfg;
    const thinking = this.thinking === null ? null : THINKING_TAG + truncate(strip(this.thinking.join("\n")), cfg.thinkingMaxChars);
    const visible = this.visible === null ? null : ASSISTANT_TAG + truncate(strip(this.visible.join("\n")), cfg.thoughtMaxChars);
    if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) {
      if (thinking !== null) this.ctx.note?.("thinking", thinking);
      if (visible !== null) this.ctx.note?.("text", visible);
    }
    if (this.lines === null && (thinking === null || visible === null)) {
      const only = thinking ?? visible;
      return only === null ? null : toWellFormed(only);
    }
    const out = [];
    if (thinking !== null) out.push(thinking);
    if (visible !== null) out.push(visible);
    if (this.lines !== null) for (const l of this.lines) out.push(l);
    return toWellFormed(out.join("\n"));
  }
};

// core/parts/call-book.ts
function needsBook(cfg) {
  return cfg.planMaxChars > 0 || !(typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) && cfg.askedTwiceMaxChars > 0 && cfg.askedTwiceTotalMaxChars > 0 || cfg.workingSetFileMaxChars > 0 || !(typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__) && cfg.backRefMaxChars > 0 || cfg.pinMaxChars > 0 && (cfg.keepResultsOf.length > 0 || cfg.keepFiles.length > 0);
}
var PAIRING_REACH = 16;
var CallBook = class {
  constructor() {
    this.index = 0;
    /**
     * Messages made under this book so far, the one being made included. A message a later pass makes
     * again (the parts cache remakes those that read the focus: each pass's tail gives its own) notes
     * its copies afresh (CopyBook), so they are that pass's, as a fresh compaction's would be.
     */
    this.making = 0;
    this.byId = /* @__PURE__ */ new Map();
    this.lastAt = /* @__PURE__ */ new Map();
    this.plans = /* @__PURE__ */ new Set();
  }
  /** Body index of the message being summarised (set before each message: each setting is a new making). */
  get at() {
    return this.index;
  }
  set at(i) {
    this.index = i;
    this.making++;
  }
  record(id, name, args) {
    const call = { name, args };
    if (typeof id === "string" && id !== "") this.byId.set(id, call);
    this.lastAt.set(this.at, call);
  }
  /** The call a result answers: by its id, else the newest call of the nearest earlier message that made one. */
  callOf(id) {
    if (typeof id === "string" && id !== "") {
      const c = this.byId.get(id);
      if (c !== void 0) return c;
    }
    for (let i = this.index; i >= 0 && i >= this.index - PAIRING_REACH; i--) {
      const c = this.lastAt.get(i);
      if (c !== void 0) return c;
    }
    return void 0;
  }
  /** The message being summarised ends its parts with a plan. */
  notePlan() {
    this.plans.add(this.at);
  }
  hasPlan(at) {
    return this.plans.has(at);
  }
  /** The newest body index before `end` that holds a plan, or -1. */
  latestPlanBefore(end) {
    let best = -1;
    for (const i of this.plans) if (i < end && i > best) best = i;
    return best;
  }
};

// core/parts/stubbed-reads.ts
var READ_STUB_OPENINGS = [
  "Wasted call \u2014 file unchanged since your last Read. Refer to that earlier tool_result instead.",
  "File unchanged since last read. The content from the earlier Read tool_result in this conversation is still current \u2014 refer to that instead of re-reading.",
  "<system-reminder>This file is already in your context"
];
var STATE_CURRENT_TRAILER = " (file state is current in your context \u2014 no need to Read it back)";
var PARTIAL_VIEW = "<system-reminder>[Truncated: PARTIAL view";
var EDIT_TOOLS2 = ["Edit", "Write", "MultiEdit"];
function stubRulesOn(cfg) {
  return cfg.pinMaxChars > 0 && (cfg.keepStubbedReads || cfg.keepEditedFiles);
}
function resultText(block) {
  const content = block.content;
  if (typeof content === "string") return content;
  const out = [];
  for (const b of arr(content)) if (obj(b).type === "text" && typeof obj(b).text === "string") out.push(obj(b).text);
  return out.join("\n");
}
function leadingText(content) {
  if (typeof content === "string") return content;
  for (const b of arr(content)) if (obj(b).type === "text") return str(obj(b).text);
  return "";
}
function resultsFrom(messages, from) {
  const out = [];
  for (let i = Math.max(0, from); i < messages.length; i++) {
    const m = obj(messages[i]);
    if (m.role !== "user") continue;
    for (const b of arr(m.content)) {
      const block = obj(b);
      if (block.type === "tool_result" && typeof block.tool_use_id === "string") out.push({ id: block.tool_use_id, block, at: i, lead: leadingText(block.content) });
    }
  }
  return out;
}
function callsBefore(messages, end) {
  const calls = /* @__PURE__ */ new Map();
  for (let i = 0; i < end; i++) {
    const m = obj(messages[i]);
    if (m.role !== "assistant") continue;
    for (const b of arr(m.content)) {
      const block = obj(b);
      if (block.type === "tool_use" && typeof block.id === "string" && typeof block.name === "string") calls.set(block.id, { name: block.name, input: isObj(block.input) ? block.input : {}, at: i });
    }
  }
  return calls;
}
var isStub = (text) => READ_STUB_OPENINGS.some((s) => text.startsWith(s));
var mayTrigger = (r, cfg) => cfg.keepStubbedReads && isStub(r.lead) || cfg.keepEditedFiles && resultText(r.block).endsWith(STATE_CURRENT_TRAILER);
var pathOf = (call) => call !== void 0 && typeof call.input.file_path === "string" && call.input.file_path !== "" ? call.input.file_path : null;
function triggers(results, calls, cfg) {
  const out = [];
  for (const r of results) {
    const call = calls.get(r.id);
    const path = pathOf(call);
    if (path === null || call === void 0) continue;
    if (cfg.keepStubbedReads && call.name === "Read" && isStub(r.lead)) out.push({ path, before: r.at, writes: false });
    else if (cfg.keepEditedFiles && EDIT_TOOLS2.indexOf(call.name) >= 0 && r.block.is_error !== true && resultText(r.block).endsWith(STATE_CURRENT_TRAILER)) out.push({ path, before: call.at + 1, writes: true });
  }
  return out;
}
function wholeRead(r, call) {
  if (call === void 0 || call.name !== "Read" || r.block.is_error === true) return false;
  if (call.input.offset !== void 0 || call.input.limit !== void 0 || call.input.pages !== void 0) return false;
  return r.lead !== "" && !isStub(r.lead) && !r.lead.startsWith(PARTIAL_VIEW);
}
function push(into, path, s) {
  const list = into.get(path);
  if (list === void 0) into.set(path, [s]);
  else list.push(s);
}
function indexSources(results, calls) {
  const reads = /* @__PURE__ */ new Map();
  for (const r of results) {
    const call = calls.get(r.id);
    const path = pathOf(call);
    if (path !== null && wholeRead(r, call)) push(reads, path, { at: r.at, call, result: r });
  }
  const writes = /* @__PURE__ */ new Map();
  for (const call of calls.values()) {
    const path = pathOf(call);
    if (path !== null && call.name === "Write" && typeof call.input.content === "string") push(writes, path, { at: call.at, call });
  }
  for (const list of writes.values()) list.sort((a, b) => a.at - b.at);
  return { reads, writes };
}
function newestBefore(list, before) {
  if (list === void 0) return null;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = lo + hi >> 1;
    if (list[mid].at < before) lo = mid + 1;
    else hi = mid;
  }
  if (lo === 0) return null;
  let i = lo - 1;
  while (i > 0 && list[i - 1].at === list[i].at) i--;
  return list[i];
}
function newestSource(t, index) {
  const read2 = newestBefore(index.reads.get(t.path), t.before);
  if (!t.writes) return read2;
  const write = newestBefore(index.writes.get(t.path), t.before);
  return write !== null && (read2 === null || write.at > read2.at) ? write : read2;
}
function summaryShows(s, id, cfg) {
  if (s.result === void 0) return cfg.editMaxChars > 0 && str(s.call.input.content).length <= cfg.editMaxChars;
  if (strip(resultText(s.result.block)).length <= cfg.resultMaxChars) return true;
  const book = new CallBook();
  book.record(id, s.call.name, s.call.input);
  return pinned(cfg, book, { callId: id });
}
function render(s, ctx, archive) {
  const cap = ctx.cfg.pinMaxChars;
  if (s.result !== void 0) {
    const text = resultText(s.result.block);
    const clean = strip(text);
    const line2 = signatureLine(s.call.name, s.call.input, ctx) + "\n" + RESULT_TAG + truncate(clean, cap);
    return withPointer(toWellFormed(line2), clean.length > cap ? archivePointer(archive, text, "result") : null);
  }
  const content = str(s.call.input.content);
  const line = `[${s.call.name}] ${pathOf(s.call)}
${truncate(content, cap)}`;
  return withPointer(toWellFormed(line), content.length > cap ? archivePointer(archive, content, "call") : null);
}
function stubbedReadParts(messages, span, cfg, archive) {
  if (!stubRulesOn(cfg) || span.cut <= span.headLen) return [];
  const late = resultsFrom(messages, span.spanFrom).filter((r) => mayTrigger(r, cfg));
  if (late.length === 0) return [];
  const calls = callsBefore(messages, messages.length);
  const found = triggers(late, calls, cfg);
  if (found.length === 0) return [];
  const index = indexSources(resultsFrom(messages, 0), calls);
  const kept = /* @__PURE__ */ new Map();
  const seen = /* @__PURE__ */ new Set();
  for (const t of found) {
    const s = newestSource(t, index);
    if (s === null || seen.has(s) || s.at < span.headLen || s.at >= span.cut || kept.has(s.at)) continue;
    seen.add(s);
    const id = s.result?.id ?? "";
    if (s.at >= span.spanFrom && summaryShows(s, id, cfg)) continue;
    kept.set(s.at, s);
  }
  const ctx = { cfg, archive };
  return [...kept.keys()].sort((a, b) => a - b).map((at) => render(kept.get(at), ctx, archive));
}

// core/parts/cache.ts
var THOUGHT_KEYS = ["thoughtMaxChars", "keepThinking", "thinkingMaxChars"];
function watched(cfg, seen) {
  const out = { ...cfg };
  for (const k of THOUGHT_KEYS) {
    Object.defineProperty(out, k, {
      enumerable: true,
      get() {
        seen.thought = true;
        return cfg[k];
      }
    });
  }
  return out;
}
function watchedContext(ctx, seen) {
  const focus = ctx.focus;
  const out = { ...ctx, cfg: watched(ctx.cfg, seen) };
  Object.defineProperty(out, "focus", {
    enumerable: true,
    get() {
      seen.focus = true;
      return focus;
    }
  });
  return out;
}
var keyOf = (cfg, keys) => keys.map((k) => jsonStringify(cfg[k])).join(",");
var archiveIds = /* @__PURE__ */ new WeakMap();
var nextArchiveId = 1;
function archiveKey(archive) {
  if (archive === void 0) return "";
  let id = archiveIds.get(archive);
  if (id === void 0) archiveIds.set(archive, id = nextArchiveId++);
  return ";archive " + id;
}
var PART_KEYS = CONFIG_KEYS.filter((k) => k !== "keepRecent");
var SHARED_KEYS = PART_KEYS.filter((k) => THOUGHT_KEYS.indexOf(k) < 0);
var PartsCache = class {
  constructor() {
    this.slots = { own: /* @__PURE__ */ new Map(), shared: /* @__PURE__ */ new Map() };
    /** Content strings decoded as JSON by the plain dialect, for every pass of one plan. */
    this.decoded = new DecodedJson();
    /** Calls and plans of the list, for the recall rules (positions are the body's, like the parts). */
    this.book = new CallBook();
    this.list = null;
    this.headLen = -1;
    this.starts = null;
    this.tails = /* @__PURE__ */ new Map();
  }
  /**
   * Whether a pass under `cfg` may reuse parts: file lists appended to the summary listen to every
   * call, so that pass cannot skip a message. (A message whose parts read the focus is made again
   * in every pass, in order, so a focus's excerpt budget runs across messages as in a fresh pass.)
   */
  static reusable(cfg) {
    return !cfg.appendFileLists;
  }
  use(list, headLen) {
    if (this.list === list && this.headLen === headLen) return;
    this.list = list;
    this.headLen = headLen;
    this.slots.own.clear();
    this.slots.shared.clear();
    this.starts = null;
    this.book = new CallBook();
    this.tails.clear();
  }
  /** Where the body's turns start (`compute` runs once per list and head). */
  turnStarts(list, headLen, compute) {
    this.use(list, headLen);
    return this.starts ??= compute();
  }
  /** The terms of the kept tail that starts where `key` says (`compute` runs once per list, head and key). */
  tailTerms(list, headLen, key, compute) {
    this.use(list, headLen);
    let terms = this.tails.get(key);
    if (terms === void 0) this.tails.set(key, terms = compute());
    return terms;
  }
  /** The book of calls and plans of this list (the one every pass over it shares). */
  bookOf(list, headLen) {
    this.use(list, headLen);
    return this.book;
  }
  /** A summariser of body messages under `cfg` that reuses and keeps parts (and, when `ctx` has a book, this list's). */
  summarizer(list, headLen, d, ctx) {
    this.use(list, headLen);
    const archived = archiveKey(ctx.archive);
    const slot = { own: this.slot("own", keyOf(ctx.cfg, PART_KEYS) + archived), shared: this.slot("shared", keyOf(ctx.cfg, SHARED_KEYS) + archived) };
    const seen = { thought: false, focus: false };
    const book = ctx.book === void 0 ? void 0 : this.book;
    const watching = watchedContext({ ...ctx, book }, seen);
    return (i, m) => {
      let made = slot.own[i] ?? slot.shared[i];
      if (made === void 0) {
        seen.thought = seen.focus = false;
        if (book !== void 0) book.at = i;
        made = d.summarize(m, watching);
        if (!seen.focus) (seen.thought ? slot.own : slot.shared)[i] = made;
      }
      return made;
    };
  }
  slot(kind, key) {
    let made = this.slots[kind].get(key);
    if (made === void 0) {
      made = new Array(Math.max(0, (this.list?.length ?? 0) - this.headLen)).fill(void 0);
      this.slots[kind].set(key, made);
    }
    return made;
  }
};

// core/retention/tail-focus.ts
var MAX_TAIL_TERMS = 40;
var MIN_TERM_LENGTH = 4;
var TAIL_READING = { ...REFERENCE_CONFIG, cmdMaxChars: 0, thoughtMaxChars: 0, thinkingMaxChars: 0, keepThinking: true, humanMaxChars: 0 };
var TAIL_READ_MAX = 8e3;
function tailTerms(tail, d, cfg, decoded) {
  const terms = [];
  const reading = { ...TAIL_READING, resultMaxChars: cfg.resultMaxChars };
  let budget = TAIL_READ_MAX;
  for (let i = tail.length - 1; i >= 0 && budget > 0 && terms.length < MAX_TAIL_TERMS; i--) {
    const words2 = /* @__PURE__ */ new Set();
    const parts = d.summarize(tail[i], { cfg: reading, decoded });
    for (let k = parts.length - 1; k >= 0 && budget > 0; k--) {
      const p = parts[k];
      addDistinctive(p.length <= budget ? p : p.slice(p.length - budget).replace(/^\S*/, ""), words2);
      budget -= p.length;
    }
    for (const w of words2) {
      const term = w.toLowerCase();
      if (terms.length >= MAX_TAIL_TERMS) break;
      if (term.length >= MIN_TERM_LENGTH && terms.indexOf(term) < 0) terms.push(term);
    }
  }
  return terms;
}
function withTailTerms(user, tail) {
  const terms = user === void 0 ? [] : user.terms.slice();
  for (const t of tail) if (terms.indexOf(t) < 0) terms.push(t);
  return terms.length === 0 ? void 0 : { text: user?.text ?? "", terms };
}
function tailScans(user) {
  return { left: TERM_SCAN_BUDGET, from: user === void 0 ? 0 : user.terms.length };
}

// core/compact.ts
var readStubParts = typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__ ? null : stubbedReadParts;
function keptTailTerms(messages, headLen, keptFrom, d, cfg, cache) {
  const compute = () => tailTerms(messages.slice(headLen + keptFrom), d, cfg, cache?.decoded);
  return cache === void 0 ? compute() : cache.tailTerms(messages, headLen, `${keptFrom}:${cfg.resultMaxChars}`, compute);
}
function booked(d, ctx) {
  const book = ctx.book;
  return book === void 0 ? (_i, m) => d.summarize(m, ctx) : (i, m) => (book.at = i, d.summarize(m, ctx));
}
function collectParts(body, keptFrom, partsOf, book, cfg, visit, refsOf, note) {
  const asked = typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__ || !askedTwiceOn(cfg) ? null : askedSettling(book, keptFrom, cfg);
  const plans = !(typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) && asked !== null || !(typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__) && refsOf !== null || cfg.planMaxChars > 0 || cfg.workingSetFileMaxChars > 0;
  const parts = [];
  const made = plans ? new Array(keptFrom) : [];
  for (let i = 0; i < keptFrom; i++) {
    visit(body[i]);
    const p = partsOf(i, body[i]);
    if (plans) made[i] = p;
    else for (let j = 0; j < p.length; j++) parts.push(p[j]);
  }
  if (!plans || book === void 0) return plans ? [].concat(...made) : parts;
  const latest = cfg.planMaxChars > 0 ? book.latestPlanBefore(keptFrom) : -1;
  const settle = typeof __CLIFF_WORKING_SET__ !== "undefined" && !__CLIFF_WORKING_SET__ || cfg.workingSetFileMaxChars <= 0 ? null : settleCopies(book, keptFrom, cfg.workingSetMaxChars, typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__ || asked === null ? void 0 : asked.overflow, cfg.outlineFileMaxChars > 0 ? { file: cfg.outlineFileMaxChars, total: cfg.outlineMaxChars, note } : null);
  const refs = typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__ || refsOf === null ? null : refsOf(book, made);
  for (let i = 0; i < keptFrom; i++) {
    const own = cfg.planMaxChars > 0 && book.hasPlan(i) && i !== latest ? made[i].slice(0, -1) : made[i];
    const copied = settle === null ? own : settle(i, own);
    const settled2 = typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__ || asked === null ? copied : asked.settle(i, copied);
    for (const part of typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__ || refs === null ? settled2 : refs(i, settled2)) parts.push(part);
  }
  return parts;
}
function firstTurn(messages, dialect) {
  for (let i = 0; i < messages.length; i++) if (dialect.isAssistant(messages[i])) return i;
  return -1;
}
function headLength(messages, dialect) {
  const first = firstTurn(messages, dialect);
  if (first < 0) return null;
  let head = first;
  for (let i = 0; i < first; i++) {
    if (dialect.isSummary(messages[i])) {
      head = i;
      break;
    }
  }
  while (head > 0 && (dialect.isSummary(messages[head - 1]) || dialect.trimFromHead(messages[head - 1]))) head--;
  return Math.max(head, dialect.providerCompactionEnd?.(messages) ?? 0);
}
function turnStarts(body, dialect) {
  const starts = [];
  for (let i = 0; i < body.length; i++) {
    if (i === 0 || dialect.startsTurn(body[i], body[i - 1])) starts.push(i);
  }
  return starts;
}
function headOf(messages, d, options) {
  if (options.headLen !== void 0) return Math.max(0, Math.min(messages.length, Math.floor(options.headLen)));
  if (options.head !== "before-first-turn") return headLength(messages, d);
  const first = firstTurn(messages, d);
  return first < 0 ? null : first;
}
function compact(messages, dialect, config, options = {}) {
  if (!Array.isArray(messages)) return null;
  return compactWith(messages.slice(), getDialect(dialect), toConfig(config), options);
}
function compactWith(messages, d, cfg, options = {}) {
  const headLen = headOf(messages, d, options);
  if (headLen === null) return null;
  const body = messages.slice(headLen);
  const starts = options.partsCache?.turnStarts(messages, headLen, () => turnStarts(body, d)) ?? turnStarts(body, d);
  const k = Math.max(0, cfg.keepRecent);
  if (starts.length <= k) return null;
  const keptFrom = k === 0 ? body.length : starts[starts.length - k];
  const focus = cfg.tailFocus ? withTailTerms(options.focus, keptTailTerms(messages, headLen, keptFrom, d, cfg, options.partsCache)) : options.focus;
  const files = cfg.appendFileLists ? new FileTracker() : null;
  const cache = options.partsCache !== void 0 && PartsCache.reusable(cfg) ? options.partsCache : null;
  const ctx = {
    cfg,
    decoded: options.partsCache?.decoded,
    archive: options.archive,
    focus: focus === void 0 ? void 0 : { focus, perResult: cfg.focusResultMaxChars, remaining: cfg.focusTotalMaxChars, context: cfg.focusContextLines, scans: cfg.tailFocus ? tailScans(options.focus) : void 0 },
    book: !needsBook(cfg) ? void 0 : cache !== null ? cache.bookOf(messages, headLen) : new CallBook(),
    onCall: files === null ? void 0 : (name, args) => files.addCall(name, args)
  };
  if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note = options.note;
  if (!(typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) && ctx.book !== void 0) setPriorCalls(ctx.book, options.priorCalls);
  const partsOf = cache !== null ? cache.summarizer(messages, headLen, d, ctx) : booked(d, ctx);
  const parts = collectParts(body, keptFrom, partsOf, ctx.book, cfg, (m) => {
    if (files !== null && d.isSummary(m)) files.addText(summaryMessageText(m));
  }, typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__ || cfg.backRefMaxChars <= 0 ? null : (book, made) => backRefs(book, keptFrom, made, (i) => d.isAssistant(body[i]), cfg, ctx.note), ctx.note);
  if (readStubParts !== null && d.name === "anthropic" && options.stubbedReads !== false) {
    for (const p of readStubParts(messages, { headLen, spanFrom: headLen, cut: headLen + keptFrom }, cfg, options.archive)) {
      if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) options.note?.("stubbed-read", p);
      parts.push(p);
    }
  }
  const filesText = files === null ? "" : formatFileLists(files.capped(cfg.filesMaxPaths, cfg.filesMaxChars));
  const result = resultOf(messages, d, headLen, headLen + keptFrom, parts, filesText);
  const outLength = headLen + 1 + body.length - keptFrom;
  if (outLength > messages.length) return null;
  if (outLength === messages.length && options.hostJudgesGain !== true) {
    let onlySummaries = true;
    let replaced = 0;
    for (let i = 0; i < keptFrom; i++) {
      if (!d.isSummary(body[i])) onlySummaries = false;
      replaced += pythonJsonLength(body[i]);
    }
    if (onlySummaries || pythonJsonLength(result.summary) >= replaced) return null;
  }
  return result;
}
function resultOf(source, d, headLen, cut, parts, filesText) {
  const built = {};
  return {
    headLen,
    cut,
    parts,
    filesText,
    get summaryText() {
      return built.text ??= renderSummary(parts) + filesText;
    },
    get summary() {
      if (!("summary" in built)) built.summary = d.summaryMessage(this.summaryText);
      return built.summary;
    },
    get messages() {
      if (built.messages === void 0) {
        const out = source.slice(0, headLen);
        out.push(this.summary);
        for (let i = cut; i < source.length; i++) out.push(source[i]);
        built.messages = out;
      }
      return built.messages;
    }
  };
}

// core/estimate/images.ts
var MAX_IMAGE_TOKENS = 4784;
var PATCH = 28;
var HEADER_CHARS = 8192;
var B64 = (() => {
  const table = new Int16Array(128).fill(-1);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  table["-".charCodeAt(0)] = 62;
  table["_".charCodeAt(0)] = 63;
  return table;
})();
function decodeBase64Prefix(text, maxChars = HEADER_CHARS) {
  const limit = Math.min(text.length, maxChars - maxChars % 4);
  const out = new Uint8Array(Math.floor(limit * 3 / 4));
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 61) break;
    const v = c < 128 ? B64[c] : -1;
    if (v < 0) continue;
    acc = (acc << 6 | v) & 16777215;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = acc >> bits & 255;
    }
  }
  return out.subarray(0, n);
}
var be16 = (b, i) => b[i] << 8 | b[i + 1];
var le16 = (b, i) => b[i] | b[i + 1] << 8;
var be32 = (b, i) => (b[i] << 24 >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
var le24 = (b, i) => b[i] | b[i + 1] << 8 | b[i + 2] << 16;
var le32 = (b, i) => (b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24) >>> 0;
function pngSize(b) {
  const sig = [137, 80, 78, 71, 13, 10, 26, 10];
  if (b.length < 24) return null;
  for (let i = 0; i < 8; i++) if (b[i] !== sig[i]) return null;
  return [be32(b, 16), be32(b, 20)];
}
function jpegSize(b) {
  if (b.length < 2 || b[0] !== 255 || b[1] !== 216) return null;
  let i = 2;
  const n = b.length;
  while (i + 9 < n) {
    if (b[i] !== 255) {
      i += 1;
      continue;
    }
    const marker = b[i + 1];
    if (marker === 255) {
      i += 1;
      continue;
    }
    if (marker === 1 || marker >= 208 && marker <= 217) {
      i += 2;
      continue;
    }
    const segment = be16(b, i + 2);
    if (marker >= 192 && marker <= 207 && marker !== 196 && marker !== 200 && marker !== 204) {
      return [be16(b, i + 7), be16(b, i + 5)];
    }
    if (segment < 2) return null;
    i += 2 + segment;
  }
  return null;
}
function gifSize(b) {
  if (b.length < 10) return null;
  const tag = String.fromCharCode(b[0], b[1], b[2], b[3], b[4], b[5]);
  if (tag !== "GIF87a" && tag !== "GIF89a") return null;
  return [le16(b, 6), le16(b, 8)];
}
function webpSize(b) {
  if (b.length < 25) return null;
  const ascii = (i, len) => String.fromCharCode(...Array.from(b.subarray(i, i + len)));
  if (ascii(0, 4) !== "RIFF" || ascii(8, 4) !== "WEBP") return null;
  const chunk = ascii(12, 4);
  if (chunk === "VP8X" && b.length >= 30) return [le24(b, 24) + 1, le24(b, 27) + 1];
  if (chunk === "VP8 " && b.length >= 30) return [le16(b, 26) & 16383, le16(b, 28) & 16383];
  if (chunk === "VP8L") {
    const bits = le32(b, 21);
    return [(bits & 16383) + 1, (bits >>> 14 & 16383) + 1];
  }
  return null;
}
function imageSize(bytes) {
  for (const read2 of [pngSize, jpegSize, gifSize, webpSize]) {
    const size = read2(bytes);
    if (size !== null && size[0] > 0 && size[1] > 0) return size;
  }
  return null;
}
function tokensForSize(width, height) {
  const patches = Math.ceil(width / PATCH) * Math.ceil(height / PATCH);
  return Math.max(1, Math.min(patches, MAX_IMAGE_TOKENS));
}
function imageTokens(payload) {
  if (typeof payload !== "string") return MAX_IMAGE_TOKENS;
  let data = payload;
  if (payload.startsWith("data:")) {
    const comma = payload.indexOf(",");
    if (comma < 0) return MAX_IMAGE_TOKENS;
    data = payload.slice(comma + 1, comma + 1 + HEADER_CHARS);
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(payload)) {
    return MAX_IMAGE_TOKENS;
  }
  const size = imageSize(decodeBase64Prefix(data));
  return size === null ? MAX_IMAGE_TOKENS : tokensForSize(size[0], size[1]);
}
var str2 = (v) => typeof v === "string" ? v : void 0;
function imagePayload(node) {
  const type = node.type;
  if (typeof type !== "string") return typeof node.mimeType === "string" && node.mimeType.startsWith("image/") ? str2(node.data) : void 0;
  switch (type) {
    case "image": {
      const source = node.source;
      if (source !== null && typeof source === "object" && !Array.isArray(source)) {
        const s = source;
        return str2(s.data) ?? str2(s.url);
      }
      return str2(node.data) ?? str2(node.url);
    }
    case "input_image":
    case "image_url":
    case "computer_screenshot": {
      const url = node.image_url;
      if (typeof url === "string") return url;
      if (url !== null && typeof url === "object" && typeof url.url === "string") {
        return url.url;
      }
      return str2(node.file_id);
    }
    case "image_generation_call":
      return str2(node.result);
    default:
      return void 0;
  }
}

// core/estimate/estimate.ts
function imageAdjustment(node) {
  const payload = imagePayload(node);
  if (payload === void 0) return void 0;
  return imageTokens(payload) * 4 - payload.length;
}
var adjustment = typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__ ? void 0 : imageAdjustment;
function billableChars(value) {
  return Math.max(0, measureJson(value, PYTHON_DEFAULT, adjustment));
}
function estimateTokens(body) {
  return Math.floor(billableChars(body) / 4);
}
function tokensOfChars(chars) {
  return Math.floor(chars / 4);
}

// core/ladder.ts
var RUNG2_THOUGHT_CAP = 300;
function maxRung(config) {
  return config.strict ? 3 : 2;
}
function rungConfig(base, rung) {
  if (rung === 0) return base;
  const cfg = { ...base, keepRecent: Math.min(base.keepRecent, 1) };
  if (rung === 1) return cfg;
  cfg.thoughtMaxChars = base.thoughtMaxChars > 0 ? Math.min(base.thoughtMaxChars, RUNG2_THOUGHT_CAP) : RUNG2_THOUGHT_CAP;
  cfg.keepThinking = false;
  return cfg;
}
function climb(from, top, step, done) {
  let reached = 0;
  for (let rung = from; rung <= top && !done(); rung = rung + 1) {
    if (step(rung)) reached = rung;
  }
  return reached;
}
function truncatedRung(list, d, base, budget, options, measure) {
  const cfg = { ...rungConfig(base, 2), keepRecent: options.finalKeepRecent ?? rungConfig(base, 2).keepRecent };
  const full = compactWith(list, d, cfg, options);
  if (full === null) return null;
  const newest = (kept) => resultOf(list, d, full.headLen, full.cut, full.parts.slice(full.parts.length - kept), full.filesText ?? "");
  const fitted = fitSummary(SUMMARY_HEADER, full.parts, (kept) => measure(newest(kept)) <= budget);
  return { result: newest(fitted.kept), rung: 3, config: cfg };
}
function planCliff(messages, dialect, config, budgetTokens, options = {}) {
  const d = getDialect(dialect);
  const base = toConfig(config);
  options = options.partsCache === void 0 ? { ...options, partsCache: new PartsCache() } : options;
  const measure = options.measure ?? ((r) => estimateTokens(r.messages));
  const list = Array.isArray(messages) ? messages : [];
  const top = options.maxRung ?? 3;
  const plan = (c) => {
    const est = measure(c.result);
    return { result: c.result, rung: c.rung, estTokens: est, overBudget: est > budgetTokens, config: c.config };
  };
  const unchanged = () => {
    const est = estimateTokens(list);
    return { result: null, rung: 0, estTokens: est, overBudget: est > budgetTokens, config: base };
  };
  if (!Array.isArray(messages)) return unchanged();
  if (options.floor !== void 0) {
    const headLen = headOf(list, d, options);
    const est = headLen === null ? 0 : options.floor(headLen);
    if (est > budgetTokens) return { result: null, rung: 0, estTokens: est, overBudget: true, config: base, headOverBudget: true };
  }
  const candidates = [];
  const bestOf = () => {
    let best = null;
    for (const c of candidates) {
      const p2 = plan(c);
      if (best === null || p2.estTokens <= best.estTokens) best = p2;
      if (!best.overBudget) return best;
    }
    return best;
  };
  const walk = { best: null, fitsUnchanged: false };
  const fits = () => walk.best !== null && !walk.best.overBudget;
  climb(0, top < 2 ? top : 2, (rung) => {
    const cfg = rungConfig(base, rung);
    const result = compactWith(list, d, cfg, options);
    if (result !== null) {
      candidates.push({ result, rung, config: cfg });
      const p2 = plan(candidates[candidates.length - 1]);
      if (walk.best === null || p2.estTokens <= walk.best.estTokens) walk.best = p2;
    } else if (walk.best === null && rung === 0 && options.mustCompact !== true) {
      walk.fitsUnchanged = !unchanged().overBudget;
    }
    return result !== null;
  }, () => walk.fitsUnchanged || fits());
  if (walk.fitsUnchanged) return unchanged();
  while (walk.best !== null && walk.best.overBudget && options.shed !== void 0 && options.shed(walk.best.estTokens - budgetTokens)) walk.best = bestOf();
  const last = fits() || top < 3 ? null : truncatedRung(list, d, base, budgetTokens, options, measure);
  const p = last === null ? null : plan(last);
  if (p !== null && (walk.best === null || p.estTokens <= walk.best.estTokens)) return p;
  return walk.best ?? unchanged();
}

// core/dialects/provider-compaction.ts
function compactionEnd(messages, holds, startsTurn2, isSummary) {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (!holds(messages[i])) continue;
    let j = i + 1;
    while (j < messages.length && !startsTurn2(messages[j], messages[j - 1]) && !isSummary(messages[j])) j++;
    return j;
  }
  return 0;
}

// core/dialects/form.ts
function prim(v) {
  if (v === void 0) return null;
  return v === null || typeof v !== "object" ? v : canonicalJson(v);
}
function withoutKeys(o, keys) {
  const out = /* @__PURE__ */ Object.create(null);
  for (const k of Object.keys(o)) if (keys.indexOf(k) < 0) out[k] = o[k];
  return out;
}
function textBlocksText(content) {
  return typeof content === "string" ? content : contentText(content);
}
function blocksForm(content, block) {
  return typeof content === "string" ? [["text", content]] : Array.isArray(content) ? content.map(block) : [];
}

// core/dialects/anthropic.ts
var SERVER_RESULT_TYPES = ["bash_code_execution_tool_result", "code_execution_tool_result", "text_editor_code_execution_tool_result"];
var SEARCH_RESULT_TYPES = ["web_search_tool_result", "web_fetch_tool_result", "tool_search_tool_result"];
function firstTextBlock(content) {
  for (const b of arr(content)) {
    const block = obj(b);
    if (block.type === "text") return str(block.text);
  }
  return void 0;
}
function toolResultText(block) {
  const content = block.content;
  if (typeof content === "string") return content;
  const out = [];
  for (const b of arr(content)) {
    if (typeof b === "string") out.push(b);
    const inner = obj(b);
    if (inner.type === "text" && typeof inner.text === "string") out.push(inner.text);
    else if (inner.type === "search_result") out.push(contentText(inner.content));
  }
  return out.join("\n");
}
function anthropicAssistantParts(content, ctx) {
  const part = new AssistantPart(ctx);
  if (typeof content === "string") {
    part.addText(content);
    return part.parts();
  }
  for (const b of arr(content)) {
    const block = obj(b);
    const type = str(block.type);
    if (type === "text") part.addText(block.text);
    else if (type === "thinking") part.addThinking(block.thinking);
    else if (type === "tool_use" || type === "server_tool_use" || type === "mcp_tool_use") part.addCall(block.name, block.input ?? {}, block.id);
    else if (type === "mcp_tool_result") part.addResult(toolResultText(block), { error: block.is_error === true, callId: block.tool_use_id });
    else if (SERVER_RESULT_TYPES.indexOf(type) >= 0) {
      const inner = obj(block.content);
      if (type === "text_editor_code_execution_tool_result" && inner.type === "text_editor_code_execution_view_result" && inner.file_type !== "text") continue;
      part.addResult(canonicalJson(block.content ?? null));
    } else if (SEARCH_RESULT_TYPES.indexOf(type) >= 0) {
      const inner = obj(block.content);
      if (str(inner.type).endsWith("_error")) part.addResult(canonicalJson(inner));
    }
  }
  return part.parts();
}
function anthropicUserParts(content, ctx) {
  if (typeof content === "string") {
    const p = humanPart("user", content, ctx);
    return one(p);
  }
  const out = [];
  for (const b of arr(content)) {
    const block = obj(b);
    let p = null;
    if (block.type === "text") p = humanPart("user", str(block.text), ctx);
    else if (block.type === "tool_result") p = resultPart(toolResultText(block), ctx, { error: block.is_error === true, callId: block.tool_use_id });
    else if (block.type === "search_result") p = resultPart(toolResultText(block), ctx);
    if (p !== null) out.push(p);
  }
  return out;
}
function digestBlock(b, hash) {
  const block = obj(b);
  switch (block.type) {
    case "text":
      return ["text", str(block.text)];
    case "tool_use":
      return ["tool_use", prim(block.id), prim(block.name), canonicalJson(block.input ?? null)];
    case "tool_result": {
      const form = ["tool_result", prim(block.tool_use_id), textBlocksText(block.content), block.is_error === true];
      for (const a of arr(block.content)) {
        const t = obj(a).type;
        if (t !== "text" && typeof a !== "string") form.push(digestBlock(a, hash));
      }
      return form;
    }
    case "thinking":
      return ["thinking", str(block.thinking)];
    case "redacted_thinking":
      return ["redacted_thinking", str(block.data)];
    case "image":
    case "document": {
      const source = obj(block.source);
      if (block.type === "document" && source.type === "content") return ["document", "content", canonicalJson(source.content ?? null)];
      return [block.type, prim(source.type), hash(str(source.data) || str(source.url))];
    }
    default:
      return ["other", canonicalJson(withoutKeys(block, ["cache_control"]))];
  }
}
var anthropic = {
  name: "anthropic",
  messagesKey: "messages",
  isAssistant: (m) => obj(m).role === "assistant",
  isSummary(m) {
    const msg = obj(m);
    if (msg.role !== "user") return false;
    return typeof msg.content === "string" ? isSummaryText(msg.content) : isSummaryText(firstTextBlock(msg.content));
  },
  providerCompactionEnd: (msgs) => compactionEnd(msgs, (m) => arr(obj(m).content).some((b) => obj(b).type === "compaction"), (m) => obj(m).role === "assistant", (m) => anthropic.isSummary(m)),
  trimFromHead: (m) => obj(m).role === "system",
  startsTurn: (m) => obj(m).role === "assistant",
  summarize(m, ctx) {
    const msg = obj(m);
    if (msg.role === "assistant") return anthropicAssistantParts(msg.content, ctx);
    if (msg.role === "system") {
      const p = humanPart("system", contentText(msg.content), ctx, false);
      return one(p);
    }
    return anthropicUserParts(msg.content, ctx);
  },
  digestForm: (m, hash) => [prim(obj(m).role), blocksForm(obj(m).content, (b) => digestBlock(b, hash))],
  summaryMessage: (text) => ({ role: "user", content: text })
};

// core/dialects/openai-chat.ts
function chatAssistantParts(msg, ctx) {
  const part = new AssistantPart(ctx);
  const reasoning = [msg.reasoning_content, msg.reasoning].find((r) => typeof r === "string" && r !== "");
  part.addThinking(reasoning);
  part.addText(contentText(msg.content));
  const refusals = [];
  if (typeof msg.refusal === "string") refusals.push(msg.refusal);
  for (const p of arr(msg.content)) {
    const block = obj(p);
    if (block.type === "refusal" && typeof block.refusal === "string") refusals.push(block.refusal);
  }
  for (const r of refusals) part.addText(r);
  for (const c of arr(msg.tool_calls)) {
    const call = obj(c);
    if (call.type === "custom") {
      const custom = obj(call.custom);
      part.addCall(custom.name, custom.input ?? "", call.id);
    } else {
      const fn = obj(call.function);
      part.addCall(fn.name, fn.arguments ?? "", call.id);
    }
  }
  if (msg.function_call !== null && typeof msg.function_call === "object") {
    const fn = obj(msg.function_call);
    part.addCall(fn.name, fn.arguments ?? "");
  }
  return part.parts();
}
function digestPart(p, hash) {
  if (typeof p === "string") return ["text", p];
  const part = obj(p);
  if (part.type === "text") return ["text", str(part.text)];
  if (part.type === "refusal") return ["refusal", str(part.refusal)];
  if (part.type === "image_url") {
    const url = typeof part.image_url === "string" ? part.image_url : str(obj(part.image_url).url);
    return ["image_url", hash(url)];
  }
  return ["other", canonicalJson(part)];
}
var argsForm = (args) => typeof args === "string" ? args : canonicalJson(args ?? null);
function digestForm(message, hash) {
  const m = obj(message);
  const calls = arr(m.tool_calls).map((c) => {
    const call = obj(c);
    if (call.type === "custom") return [prim(call.id), "custom", str(obj(call.custom).name), canonicalJson(obj(call.custom).input ?? null)];
    const fn = obj(call.function);
    return [prim(call.id), prim(fn.name), argsForm(fn.arguments)];
  });
  if (m.function_call !== null && typeof m.function_call === "object") {
    const fn = obj(m.function_call);
    calls.push([null, prim(fn.name), argsForm(fn.arguments)]);
  }
  const form = [prim(m.role), blocksForm(m.content, (p) => digestPart(p, hash)), calls, prim(m.tool_call_id), prim(m.name)];
  const reasoning = [m.reasoning_content, m.reasoning].find((r) => typeof r === "string");
  if (reasoning !== void 0) form.push(reasoning);
  if (typeof m.refusal === "string") form.push(["refusal", m.refusal]);
  return form;
}
var openaiChat = {
  name: "openai-chat",
  messagesKey: "messages",
  isAssistant: (m) => obj(m).role === "assistant",
  isSummary(m) {
    const msg = obj(m);
    return msg.role === "user" && isSummaryText(contentText(msg.content));
  },
  trimFromHead: () => false,
  startsTurn: (m) => obj(m).role === "assistant",
  summarize(m, ctx) {
    const msg = obj(m);
    const role = str(msg.role);
    let p;
    if (role === "assistant") return chatAssistantParts(msg, ctx);
    if (role === "tool" || role === "function") p = resultPart(contentText(msg.content), ctx, { callId: msg.tool_call_id, tool: msg.name });
    else if (role === "user") p = humanPart("user", contentText(msg.content), ctx);
    else p = humanPart(role || "unknown", contentText(msg.content), ctx, false);
    return one(p);
  },
  digestForm,
  summaryMessage: (text) => ({ role: "user", content: text })
};

// core/dialects/openai-responses.ts
var MODEL_OUTPUT = /* @__PURE__ */ new Set([
  "reasoning",
  "function_call",
  "custom_tool_call",
  "local_shell_call",
  "web_search_call",
  "tool_search_call",
  "image_generation_call",
  "apply_patch_call",
  "computer_call",
  "code_interpreter_call",
  "mcp_call",
  "mcp_list_tools",
  "mcp_approval_request",
  "shell_call",
  "file_search_call"
]);
var TEXT_PARTS = ["input_text", "output_text", "text"];
var CALL_ARGS = {
  custom_tool_call: ["input"],
  apply_patch_call: ["operation"],
  computer_call: ["actions", "action"],
  local_shell_call: ["action"],
  shell_call: ["action"],
  web_search_call: ["action"],
  file_search_call: ["queries"],
  code_interpreter_call: ["code"],
  image_generation_call: ["revised_prompt"]
};
function itemType(item) {
  if (typeof item.type === "string") return item.type;
  return item.role !== void 0 ? "message" : "other";
}
function isModelOutput(m) {
  const item = obj(m);
  const type = itemType(item);
  if (type === "message") return item.role === "assistant";
  if (type === "tool_search_output") return item.execution === "server";
  return MODEL_OUTPUT.has(type);
}
function messageText(item) {
  const refusals = arr(item.content).map((p) => obj(p)).filter((p) => p.type === "refusal" && typeof p.refusal === "string");
  const text = contentText(item.content, TEXT_PARTS);
  return refusals.length === 0 ? text : [text, ...refusals.map((p) => p.refusal)].filter((t) => t !== "").join("\n");
}
function outputText(output) {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) {
    const texts = output.map((p) => obj(p)).filter((p) => TEXT_PARTS.indexOf(str(p.type)) >= 0 && typeof p.text === "string");
    if (texts.length > 0) return texts.map((p) => p.text).join("\n");
    if (output.length > 0 && output.every((p) => typeof obj(p).type === "string")) return null;
  }
  if (output !== null && typeof output === "object" && !Array.isArray(output) && imagePayload(output) !== void 0) return null;
  return output === void 0 ? null : canonicalJson(output);
}
function shellExitCode(output) {
  let code2;
  for (const o of arr(output)) {
    const outcome = obj(obj(o).outcome);
    if (outcome.type === "exit" && typeof outcome.exit_code === "number" && (code2 === void 0 || code2 === 0)) code2 = outcome.exit_code;
  }
  return code2;
}
function callParts(item, type, ctx) {
  const part = new AssistantPart(ctx);
  let args = item.arguments;
  for (const field of CALL_ARGS[type] ?? []) {
    if (item[field] !== void 0) {
      args = item[field];
      break;
    }
  }
  part.addCall(item.name ?? item.server_label ?? type, args ?? "", item.call_id);
  if (type === "mcp_call") {
    if (typeof item.output === "string") part.addResult(item.output);
    if (typeof item.error === "string") part.addResult(item.error);
  } else if (type === "code_interpreter_call") {
    for (const o of arr(item.outputs)) if (typeof obj(o).logs === "string") part.addResult(obj(o).logs);
  } else if (type === "file_search_call") {
    for (const r of arr(item.results)) if (typeof obj(r).text === "string") part.addResult(obj(r).text);
  }
  return part.parts();
}
function summarizeItem(item, ctx) {
  const type = itemType(item);
  if (type === "message") {
    const role = str(item.role) || "unknown";
    const text = messageText(item);
    if (role === "assistant") {
      const part = new AssistantPart(ctx);
      part.addText(text);
      return part.parts();
    }
    const p = humanPart(role, text, ctx, true);
    return one(p);
  }
  if (type === "reasoning") {
    if (!ctx.cfg.keepThinking) return [];
    const texts = [...arr(item.summary), ...arr(item.content)].map((s) => obj(s).text).filter((t) => typeof t === "string");
    const part = new AssistantPart(ctx);
    part.addThinking(texts.join("\n"));
    return part.parts();
  }
  if (type === "shell_call_output") {
    const p = resultPart(canonicalJson(item.output ?? null), ctx, { callId: item.call_id, exitCode: shellExitCode(item.output) });
    return one(p);
  }
  if (type.endsWith("_output")) {
    const text = outputText(item.output);
    const p = text === null ? null : resultPart(text, ctx, { callId: item.call_id });
    return one(p);
  }
  if (type.endsWith("_call") || MODEL_OUTPUT.has(type)) return callParts(item, type, ctx);
  return [];
}
function digestForm2(message) {
  const item = obj(message);
  const type = itemType(item);
  if (type === "message") {
    const parts = typeof item.content === "string" ? [["text", item.content]] : arr(item.content).map((p) => canonicalJson(withoutKeys(obj(p), ["id", "status"])));
    return ["message", prim(item.role), parts];
  }
  if (type === "reasoning") return ["reasoning", prim(item.encrypted_content), canonicalJson(item.summary ?? null), canonicalJson(item.content ?? null)];
  if (type.endsWith("_output")) {
    const out = item.output;
    return [type, prim(item.call_id), typeof out === "string" ? out : canonicalJson(out ?? null), typeof out === "string"];
  }
  if (type.endsWith("_call")) {
    const rest = withoutKeys(item, ["id", "status", "type", "call_id", "name", "arguments"]);
    const args = typeof item.arguments === "string" ? item.arguments : canonicalJson(item.arguments ?? null);
    return [type, prim(item.call_id), prim(item.name), args, canonicalJson(rest)];
  }
  return ["other", canonicalJson(withoutKeys(item, ["id", "status"]))];
}
var startsTurn = (m, prev) => isModelOutput(m) && !isModelOutput(prev);
var openaiResponses = {
  name: "openai-responses",
  messagesKey: "input",
  isAssistant: isModelOutput,
  isSummary(m) {
    const item = obj(m);
    return itemType(item) === "message" && item.role === "user" && isSummaryText(messageText(item));
  },
  providerCompactionEnd: (msgs) => compactionEnd(msgs, (m) => obj(m).type === "compaction", startsTurn, (m) => openaiResponses.isSummary(m)),
  trimFromHead: () => false,
  startsTurn,
  summarize: (m, ctx) => summarizeItem(obj(m), ctx),
  digestForm: digestForm2,
  summaryMessage: (text) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] })
};

// core/dialects/gemini.ts
var isModel = (m) => obj(m).role === "model";
function firstText(parts) {
  for (const p of arr(parts)) {
    const part = obj(p);
    if (typeof part.text === "string" && part.thought !== true) return part.text;
  }
  return void 0;
}
function functionResponseText(fr) {
  const response = fr.response;
  const r = obj(response);
  if (typeof r.output === "string" && r.error === void 0) return { text: r.output, error: false };
  if (typeof r.error === "string") return { text: r.error, error: true };
  if (r.error !== void 0 && r.error !== null) return { text: canonicalJson(r.error), error: true };
  if (typeof r.content === "string") return { text: r.content, error: false };
  return { text: response === void 0 ? "" : canonicalJson(response), error: false };
}
function modelParts(parts, ctx) {
  const part = new AssistantPart(ctx);
  for (const p of arr(parts)) {
    const x = obj(p);
    if (typeof x.text === "string") {
      if (x.thought === true) part.addThinking(x.text);
      else part.addText(x.text);
    } else if (x.functionCall !== void 0) {
      const call = obj(x.functionCall);
      part.addCall(call.name, call.args ?? {}, call.id);
    } else if (x.executableCode !== void 0) {
      const code2 = obj(x.executableCode);
      part.addCall("code_execution", str(code2.code), void 0);
    } else if (x.codeExecutionResult !== void 0) {
      const result = obj(x.codeExecutionResult);
      const outcome = str(result.outcome);
      part.addResult(str(result.output), { error: outcome !== "" && outcome !== "OUTCOME_OK" });
    }
  }
  return part.parts();
}
function userParts(parts, ctx) {
  const out = [];
  for (const p of arr(parts)) {
    const x = obj(p);
    let s = null;
    if (typeof x.text === "string" && x.thought !== true) s = humanPart("user", x.text, ctx);
    else if (x.functionResponse !== void 0) {
      const fr = obj(x.functionResponse);
      const { text, error } = functionResponseText(fr);
      s = resultPart(text, ctx, { error, callId: fr.id, tool: fr.name });
    }
    if (s !== null) out.push(s);
  }
  return out;
}
function digestPart2(p, hash) {
  const x = obj(p);
  const sig = typeof x.thoughtSignature === "string" ? hash(x.thoughtSignature) : null;
  if (typeof x.text === "string") return ["text", x.text, x.thought === true, sig];
  if (x.functionCall !== void 0) {
    const c = obj(x.functionCall);
    return ["functionCall", prim(c.id), prim(c.name), canonicalJson(c.args ?? null), sig];
  }
  if (x.functionResponse !== void 0) {
    const r = obj(x.functionResponse);
    return ["functionResponse", prim(r.id), prim(r.name), canonicalJson(r.response ?? null), canonicalJson(r.parts ?? null)];
  }
  if (x.inlineData !== void 0) {
    const d = obj(x.inlineData);
    return ["inlineData", prim(d.mimeType), hash(str(d.data))];
  }
  return ["other", canonicalJson(withoutKeys(x, ["thoughtSignature"])), sig];
}
var isSummaryContent = (m) => {
  const msg = obj(m);
  return msg.role === "user" && isSummaryText(firstText(msg.parts));
};
var joinable = (m) => m !== void 0 && !isModel(m) && !arr(obj(m).parts).some((p) => obj(p).functionResponse !== void 0);
function sendable(list, at) {
  if (!isSummaryContent(list[at])) return list.slice();
  let from = at;
  let to = at + 1;
  if (at > 0 && !isModel(list[at - 1])) from = at - 1;
  if (joinable(list[to])) to++;
  if (to - from === 1) return list.slice();
  const first = obj(list[from]);
  const parts = [];
  for (let i = from; i < to; i++) for (const p of arr(obj(list[i]).parts)) parts.push(p);
  const out = list.slice(0, from);
  out.push({ ...first, parts });
  for (let i = to; i < list.length; i++) out.push(list[i]);
  return out;
}
var gemini = {
  name: "gemini",
  messagesKey: "contents",
  isAssistant: isModel,
  isSummary: isSummaryContent,
  trimFromHead: () => false,
  startsTurn: (m, prev) => isModel(m) && !isModel(prev),
  summarize(m, ctx) {
    const msg = obj(m);
    if (msg.role === "model") return modelParts(msg.parts, ctx);
    if (msg.role === "user" || msg.role === void 0) return userParts(msg.parts, ctx);
    const p = humanPart(str(msg.role) || "unknown", arr(msg.parts).map((x) => str(obj(x).text)).join("\n"), ctx, false);
    return one(p);
  },
  digestForm: (m, hash) => [prim(obj(m).role), arr(obj(m).parts).map((p) => digestPart2(p, hash))],
  summaryMessage: (text) => ({ role: "user", parts: [{ text }] }),
  sendable
};

// core/pi/format.ts
var PI_SUMMARY_PREFIX = "The conversation history before this point was compacted into the following summary:";
var PI_BRANCH_PREFIX = "The following is a summary of a branch that this conversation came back from:";
function piBranchSummaryText(summary) {
  return `${PI_BRANCH_PREFIX}

<summary>
${summary}
</summary>`;
}
function startsLikeSummary(text) {
  return text.startsWith(SUMMARY_HEADER) || text.startsWith(PI_SUMMARY_PREFIX);
}

// core/pi/dialect.ts
function assistantParts(content, ctx) {
  const part = new AssistantPart(ctx);
  if (typeof content === "string") part.addText(content);
  for (const b of arr(content)) {
    const block = obj(b);
    if (block.type === "text") part.addText(block.text);
    else if (block.type === "thinking" && block.redacted !== true) part.addThinking(block.thinking);
    else if (block.type === "toolCall") part.addCall(block.name, block.arguments ?? {}, block.id);
  }
  return part.parts();
}
function digestBlock2(b, hash) {
  const block = obj(b);
  switch (block.type) {
    case "text":
      return ["text", str(block.text)];
    case "thinking":
      return ["thinking", str(block.thinking)];
    case "toolCall":
      return ["toolCall", prim(block.id), prim(block.name), canonicalJson(block.arguments ?? null)];
    case "image":
      return ["image", prim(block.mimeType), hash(str(block.data))];
    default:
      return ["other", canonicalJson(block)];
  }
}
function digestForm3(message, hash) {
  const m = obj(message);
  const form = [prim(m.role), blocksForm(m.content, (b) => digestBlock2(b, hash))];
  if (m.role === "toolResult") form.push(prim(m.toolCallId), m.isError === true);
  if (m.role === "bashExecution") form.push(str(m.command), str(m.output));
  if (m.role === "compactionSummary" || m.role === "branchSummary") form.push(str(m.summary));
  return form;
}
var piDialect = {
  name: "pi",
  messagesKey: "messages",
  isAssistant: (m) => obj(m).role === "assistant",
  isSummary(m) {
    const msg = obj(m);
    if (msg.role === "compactionSummary") return true;
    return msg.role === "user" && startsLikeSummary(contentText(msg.content));
  },
  trimFromHead: () => false,
  startsTurn: (m) => obj(m).role === "assistant",
  summarize(m, ctx) {
    const msg = obj(m);
    switch (msg.role) {
      case "assistant":
        return assistantParts(msg.content, ctx);
      case "toolResult":
        return one(resultPart(contentText(msg.content), ctx, { error: msg.isError === true, callId: msg.toolCallId, tool: msg.toolName }));
      case "bashExecution": {
        const part = new AssistantPart(ctx);
        part.addCall("bash", str(msg.command));
        part.addResult(str(msg.output), { exitCode: typeof msg.exitCode === "number" ? msg.exitCode : void 0, error: msg.cancelled === true });
        return part.parts();
      }
      case "compactionSummary":
        return [];
      case "branchSummary":
        return one(humanPart("user", piBranchSummaryText(str(msg.summary)), ctx));
      case "system":
        return one(humanPart("system", contentText(msg.content), ctx, false));
      case "user":
      case "custom":
        return startsLikeSummary(contentText(msg.content)) ? [] : one(humanPart("user", contentText(msg.content), ctx));
      default:
        return one(humanPart(str(msg.role) || "unknown", contentText(msg.content), ctx, false));
    }
  },
  digestForm: digestForm3,
  summaryMessage: (text) => ({ role: "user", content: text })
};

// core/dialects/plain.ts
var CLASSES = {
  system: "system",
  developer: "system",
  user: "human",
  human: "human",
  assistant: "assistant",
  model: "assistant",
  ai: "assistant",
  tool: "tool",
  toolresult: "tool",
  tool_result: "tool",
  function: "tool",
  observation: "tool"
};
function plainClass(role) {
  return typeof role === "string" ? CLASSES[role.toLowerCase()] ?? "other" : "other";
}
var MAX_EMBEDDED_DEPTH = 64;
function worthDecoding(content) {
  if (content.charCodeAt(0) === 91 ? !/^\[\s*\{/.test(content) : content.indexOf('"tool_calls"') < 0) return false;
  return shallow(content);
}
var STRING_LITERAL = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"/g;
var NOT_BRACKETS = /[^[\]{}]+/g;
function shallow(content) {
  const brackets = content.replace(STRING_LITERAL, "").replace(NOT_BRACKETS, "");
  let depth = 0;
  for (let i = 0; i < brackets.length; i++) {
    const c = brackets.charCodeAt(i);
    if (c === 91 || c === 123) {
      if (++depth > MAX_EMBEDDED_DEPTH) return false;
    } else depth--;
  }
  return true;
}
function embeddedJson(content, ctx) {
  const c = content.charCodeAt(0);
  if (c !== 91 && c !== 123) return void 0;
  const known = ctx.decoded === void 0 ? NOT_SEEN : ctx.decoded.get(content);
  if (known !== NOT_SEEN) return known;
  let data;
  if (worthDecoding(content)) {
    try {
      data = jsonParse(content);
    } catch {
      data = void 0;
    }
  }
  ctx.decoded?.set(content, data);
  return data;
}
function isBlockList(v) {
  return Array.isArray(v) && v.length > 0 && v.every((b) => typeof obj(b).type === "string");
}
var SIGNATURE_LINE = /^\[([^\]\n]{1,100})\] (\{.*\})$/;
function reportSignatureCalls(content, ctx) {
  if (ctx.onCall === void 0 || content.indexOf("] {") < 0) return;
  for (let start = 0; start < content.length; ) {
    const nl = content.indexOf("\n", start);
    const end = nl < 0 ? content.length : nl;
    const m = content.charCodeAt(start) === 91 ? SIGNATURE_LINE.exec(content.slice(start, end)) : null;
    if (m !== null && shallow(m[2])) {
      try {
        ctx.onCall(m[1], jsonParse(m[2]));
      } catch {
      }
    }
    start = end + 1;
  }
}
function assistantParts2(content, ctx) {
  const data = embeddedJson(content, ctx);
  if (isBlockList(data)) return anthropicAssistantParts(data, ctx);
  const msg = obj(data);
  if (Array.isArray(msg.tool_calls)) return chatAssistantParts(msg, ctx);
  reportSignatureCalls(content, ctx);
  return anthropicAssistantParts(content, ctx);
}
function digestForm4(message) {
  const m = obj(message);
  return [prim(m.role), typeof m.content === "string" ? m.content : canonicalJson(m.content ?? null)];
}
var plain = {
  name: "plain",
  messagesKey: "messages",
  isAssistant: (m) => plainClass(obj(m).role) === "assistant",
  isSummary(m) {
    const msg = obj(m);
    return plainClass(msg.role) !== "assistant" && isSummaryText(msg.content);
  },
  trimFromHead: () => false,
  startsTurn: (m) => plainClass(obj(m).role) === "assistant",
  summarize(m, ctx) {
    const msg = obj(m);
    const content = str(msg.content);
    if (isSummaryText(content)) return [];
    switch (plainClass(msg.role)) {
      case "assistant":
        return assistantParts2(content, ctx);
      case "tool": {
        const data = embeddedJson(content, ctx);
        return isBlockList(data) ? anthropicUserParts(data, ctx) : one(resultPart(content, ctx));
      }
      case "human": {
        const data = embeddedJson(content, ctx);
        return isBlockList(data) ? anthropicUserParts(data, ctx) : one(humanPart("user", content, ctx));
      }
      case "system":
        return one(humanPart("system", content, ctx, false));
      default:
        return one(humanPart(typeof msg.role === "string" && msg.role !== "" ? msg.role : "unknown", content, ctx));
    }
  },
  digestForm: digestForm4,
  summaryMessage: (text) => ({ role: "user", content: text })
};

// core/dialects/index.ts
for (const d of [anthropic, openaiChat, openaiResponses, gemini, piDialect, plain]) registerDialect(d);

// core/refetch.ts
var PAIRING_REACH2 = 16;
var SiteBook = class extends CallBook {
  constructor() {
    super(...arguments);
    this.sites = [];
    this.answers = /* @__PURE__ */ new Map();
    this.ids = /* @__PURE__ */ new Map();
    /** The message being read is the model's (a user's own command, as Pi records one, is no re-fetch). */
    this.model = false;
  }
  record(id, name, args) {
    super.record(id, name, args);
    if (!this.model) return;
    const site = { at: this.at, id, name: str(name), key: callKey(name, args) };
    this.sites.push(site);
    if (typeof id === "string" && id !== "") this.ids.set(id, site);
  }
  answer(text, meta) {
    const id = meta?.callId;
    let site = typeof id === "string" && id !== "" ? this.ids.get(id) : void 0;
    if (site === void 0 && (typeof id !== "string" || id === "")) {
      const last = this.sites[this.sites.length - 1];
      if (last !== void 0 && last.at >= this.at - PAIRING_REACH2) site = last;
    }
    if (site !== void 0 && !this.answers.has(site)) this.answers.set(site, { at: this.at, text });
  }
  answerOf(site) {
    return this.answers.get(site);
  }
};
var READ_ONLY = { ...DEFAULT_CONFIG, keepThinking: false, thoughtMaxChars: 1, cmdMaxChars: 1, humanMaxChars: 1, resultMaxChars: 0, keepStubbedReads: false };
function read(messages, d, from, to) {
  const book = new SiteBook();
  const ctx = { cfg: READ_ONLY, book, onResult: (text, meta) => book.answer(text, meta) };
  for (let i = Math.max(0, from); i < to; i++) {
    book.at = i;
    book.model = d.isAssistant(messages[i]);
    d.summarize(messages[i], ctx);
  }
  return book;
}
var KEPT_AT2 = " chars, kept at ";
function pointsAt(summary, path) {
  const at = summary.indexOf(KEPT_AT2 + path);
  if (at < 0) return false;
  const end = at + KEPT_AT2.length + path.length;
  return end === summary.length || summary.charCodeAt(end) === 10;
}
function dropped(book, site, cliff) {
  if (site.at < cliff.headLen || site.at >= cliff.cut) return false;
  const answer = book.answerOf(site);
  if (answer === void 0 || answer.at >= cliff.cut) return false;
  const clean = strip(answer.text);
  return clean !== "" && cliff.summaryText.indexOf(clean) < 0;
}
function refetchesIn(messages, d, cliff, from, to = messages.length) {
  const end = Math.min(to, messages.length);
  if (cliff.cut <= cliff.headLen || from >= end) return [];
  const book = read(messages, d, Math.min(cliff.headLen, from), end);
  const out = [];
  const newest = /* @__PURE__ */ new Map();
  for (const site of book.sites) {
    if (site.key === "") continue;
    if (site.at >= from) {
      const found = refetchOf(book, site, newest.get(site.key), cliff);
      if (found !== null) out.push(found);
    }
    newest.set(site.key, site);
  }
  return out;
}
function refetchOf(book, site, earlier, cliff) {
  const path = readKeyPath(site.key);
  const archived = path !== null && (earlier === void 0 || earlier.at < cliff.cut) && pointsAt(cliff.summaryText, path);
  if (!archived && (earlier === void 0 || !dropped(book, earlier, cliff))) return null;
  const own = book.answerOf(site);
  const theirs = earlier === void 0 ? void 0 : book.answerOf(earlier);
  const text = own?.text ?? theirs?.text ?? "";
  return { at: site.at, tool: site.name, path, tokens: tokensOfChars(text.length), repeats: archived ? -1 : earlier.at };
}

// core/pi/session.ts
function messageOf(e) {
  if (e.type === "message" && isObj(e.message)) {
    if (e.message.role === "system") return null;
    return e.message;
  }
  if (e.type === "custom_message") return { role: "user", content: e.content ?? "" };
  if (e.type === "branch_summary" && typeof e.summary === "string" && e.summary !== "") {
    return { role: "user", content: piBranchSummaryText(e.summary) };
  }
  return null;
}
function liveFromEntries(branchEntries) {
  const entries2 = branchEntries.filter(isObj);
  const edits = /* @__PURE__ */ new Map();
  for (const e of entries2) if (e.type === "context_edit") edits.set(e.targetId, e);
  let start = 0;
  for (let i = entries2.length - 1; i >= 0; i--) {
    if (entries2[i].type !== "compaction") continue;
    const kept = entries2.findIndex((e) => e.id === entries2[i].firstKeptEntryId);
    start = kept >= 0 && kept < i ? kept : i + 1;
    break;
  }
  const mapped = [];
  entries2.forEach((e, index) => {
    let message = messageOf(e);
    if (message === null) return;
    const edit = edits.get(e.id);
    if (edit !== void 0) {
      if (edit.replacement === null) return;
      if (isObj(edit.replacement) && "content" in edit.replacement) message = { ...message, content: edit.replacement.content };
    }
    mapped.push({ index, live: { entryId: String(e.id), message } });
  });
  const first = mapped.find((m) => m.live.message.role === "assistant");
  const headEnd = first === void 0 ? Infinity : first.index;
  return mapped.filter((m) => m.index < headEnd || m.index >= start).map((m) => m.live);
}

// pi-extension/config.ts
var CONFIG_FILE_NAME = "cliffcompaction.json";
function detectHost(argv = process.argv, versions = process.versions) {
  const script = argv[1] ?? "";
  return "bun" in versions || /@oh-my-pi|[\\/]omp(\.[cm]?js)?$/.test(script) ? "omp" : "pi";
}
function configPath(env = process.env, home = homedir(), host = detectHost()) {
  const explicit = env.PI_CLIFF_CONFIG || env.OMP_CLIFF_CONFIG;
  if (explicit) return explicit;
  if (env.PI_CODING_AGENT_DIR) return join(env.PI_CODING_AGENT_DIR, CONFIG_FILE_NAME);
  if (host === "omp") return join(home, env.PI_CONFIG_DIR || ".omp", "agent", CONFIG_FILE_NAME);
  const dir = env.PI_CONFIG_DIR || env.OMP_CONFIG_DIR;
  if (dir) return join(dir, CONFIG_FILE_NAME);
  const pi = join(home, ".pi", "agent", CONFIG_FILE_NAME);
  const omp = join(home, ".omp", "agent", CONFIG_FILE_NAME);
  return !existsSync(pi) && existsSync(omp) ? omp : pi;
}
function validLayer(source, values, problems) {
  const kept = {};
  for (const key of Object.keys(values)) {
    try {
      resolveConfig({ [key]: values[key] });
      kept[key] = values[key];
    } catch (e) {
      problems.push(`${source}: ${e.message}; ignored`);
    }
  }
  return { source, values: kept };
}
function loadConfig(env = process.env, home = homedir(), host = detectHost()) {
  const path = configPath(env, home, host);
  const problems = [];
  const layers = [];
  const fileFound = existsSync(path);
  if (fileFound) {
    let parsed;
    try {
      parsed = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      problems.push(`${path}: not valid JSON (${e.message.split("\n")[0]}); using the defaults`);
    }
    if (parsed !== void 0) {
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) problems.push(`${path}: must hold a JSON object of settings; using the defaults`);
      else layers.push(validLayer(path, parsed, problems));
    }
  }
  const fromEnv = envValues(env);
  for (const p of fromEnv.problems) problems.push(`${p}; the setting is left as it was`);
  layers.push(validLayer("environment", fromEnv.values, problems));
  return { config: resolveLayers(layers), path, fileFound, problems };
}

// pi-extension/hook.ts
var piDialect2 = getDialect("pi");
function foldable(head) {
  const parts = [];
  for (const m of head) {
    const text = headText(m);
    if (text === null) return null;
    parts.push(`${m.role === "custom" ? "user" : String(m.role)}: ${text}`);
  }
  return parts;
}
function headText(m) {
  if (m.role !== "user" && m.role !== "custom") return null;
  if (typeof m.content === "string") return m.content;
  if (!Array.isArray(m.content)) return null;
  const texts = [];
  for (const b of m.content) {
    if (b === null || typeof b !== "object" || b.type !== "text") return null;
    texts.push(String(b.text ?? ""));
  }
  return texts.join("\n");
}
function compactSession(live, cfg, opts) {
  const msgs = live.map((l) => l.message);
  let headParts = null;
  const foldHead = (r2) => headParts ??= foldable(msgs.slice(0, r2.headLen));
  const render2 = (r2) => renderSummary([...foldHead(r2) ?? [], ...r2.parts]);
  const measure = (r2) => estimateTokens({ messages: [{ role: "user", content: render2(r2) }, ...r2.messages.slice(r2.headLen + 1)] });
  const budget = opts.reason === "overflow" ? -1 : cfg.strict ? cfg.thresholdTokens : Infinity;
  const plan = planCliff(msgs, piDialect2, cfg, budget, {
    head: "before-first-turn",
    focus: parseFocus(opts.customInstructions),
    measure,
    maxRung: maxRung(cfg),
    // Pi has decided to compact on its threshold or an overflow: escalate past an empty rung.
    mustCompact: opts.reason !== "manual",
    archive: opts.archive
  });
  const r = plan.result;
  if (r === null || foldHead(r) === null) return null;
  const ops = filesTouched(msgs.slice(r.headLen, r.cut), piDialect2, opts.files ?? new FileTracker());
  const files = { readFiles: ops.read.sort(), modifiedFiles: ops.modified.sort() };
  const estTokensOut = measure(r);
  const details = {
    version: 1,
    method: "cliffcompaction",
    reason: opts.reason,
    rung: plan.rung,
    headLen: r.headLen,
    cut: r.cut,
    keepRecent: plan.config.keepRecent,
    liveMessages: msgs.length,
    keptMessages: msgs.length - r.cut,
    estTokensOut,
    overBudget: estTokensOut > cfg.thresholdTokens,
    ...files
  };
  if (opts.customInstructions) details.focus = opts.customInstructions;
  return {
    summary: render2(r) + formatFileLists({ read: files.readFiles, modified: files.modifiedFiles }),
    firstKeptEntryId: r.cut < live.length ? live[r.cut].entryId : "",
    details
  };
}

// pi-extension/archive.ts
import { createHash as createHash2 } from "node:crypto";
import { homedir as homedir3 } from "node:os";
import { join as join4 } from "node:path";

// node/archive.ts
import * as fs from "node:fs";
import { createHash, randomBytes } from "node:crypto";
import { homedir as homedir2 } from "node:os";
import { join as join3, resolve as resolve2 } from "node:path";

// node/archive-trust.ts
import { lstatSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join as join2, relative, resolve } from "node:path";
var currentUser = (home) => ({ uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, home });
var WHAT_TO_DO = "use a folder of your own, e.g. ~/.cache/cliffcompaction/archive (the default)";
function resolveExisting(path) {
  const missing = [];
  let at = resolve(path);
  for (; ; ) {
    try {
      return join2(realpathSync(at), ...missing.reverse());
    } catch (e) {
      const code2 = e.code;
      if (code2 !== "ENOENT" && code2 !== "ENOTDIR") throw e;
      const up = dirname(at);
      if (up === at) return resolve(path);
      missing.push(at.slice(up.length).replace(/^[/\\]+/, ""));
      at = up;
    }
  }
}
function folderProblem(path, st, me) {
  if (!st.isDirectory()) return null;
  if (st.uid !== me.uid && st.uid !== 0) return `${path} is owned by uid ${st.uid}, not by you or root`;
  const sticky = (st.mode & 512) !== 0;
  const others = (st.mode & 2) !== 0 || (st.mode & 16) !== 0 && st.gid !== me.gid;
  if (others && !sticky) return `${path} is writable by other users`;
  return null;
}
function chain(dir, home) {
  const realHome = resolveExisting(home);
  const rel = relative(realHome, dir);
  const inside = rel === "" || !rel.startsWith("..") && !isAbsolute(rel);
  const out = [];
  for (let at = dir; ; at = dirname(at)) {
    out.push(at);
    if (inside && at === realHome || dirname(at) === at) return out;
  }
}
var ARCHIVE = { folder: "the archive folder", harm: "another user could replace what a summary points at", todo: WHAT_TO_DO };
function archiveTrust(dir, me, purpose = ARCHIVE) {
  const real = resolveExisting(dir);
  for (const path of chain(real, me.home)) {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      continue;
    }
    const problem = folderProblem(path, st, me);
    if (problem !== null) {
      const via = real === resolve(dir) ? "" : ` (${dir} leads there)`;
      return { problem: `${purpose.folder} cannot be trusted: ${problem}${via}, so ${purpose.harm}; ${purpose.todo}` };
    }
  }
  return { dir: real };
}

// node/archive.ts
var NAME = /^[0-9a-f]{64}\.txt$/;
var SHARD = /^[0-9a-f]{2}$/;
var Failure = class extends Error {
};
var Folder = class {
  constructor(dir, maxBytes, io) {
    this.dir = dir;
    this.maxBytes = maxBytes;
    this.io = io;
    this.index = null;
    this.bytes = 0;
    this.counts = { written: 0, refreshed: 0, failures: 0 };
  }
  get files() {
    return this.index?.size ?? 0;
  }
  /** A folder of ours: made 0700 when missing; refused when it is a symlink or not a folder. */
  folder(path, recursive) {
    let st;
    try {
      st = this.io.lstatSync(path);
    } catch (e) {
      if (e.code !== "ENOENT") throw e;
    }
    if (st === void 0) {
      this.io.mkdirSync(path, { recursive, mode: 448 });
      this.io.chmodSync(path, 448);
    } else if (st.isSymbolicLink() || !st.isDirectory()) {
      throw new Failure(`${path} is not a folder (a symlink is never followed)`);
    }
  }
  /** The folder's files, oldest first, read once (the bound counts what earlier runs left). */
  load() {
    const io = this.io;
    this.folder(this.dir, true);
    const found = [];
    for (const shard of io.readdirSync(this.dir)) {
      const sub = join3(this.dir, shard);
      if (!SHARD.test(shard) || !io.lstatSync(sub).isDirectory()) continue;
      for (const name of io.readdirSync(sub)) {
        if (!NAME.test(name)) continue;
        const st = io.lstatSync(join3(sub, name));
        if (st.isFile()) found.push({ path: join3(sub, name), size: st.size, at: st.mtimeMs });
      }
    }
    found.sort((a, b) => a.at - b.at);
    const out = /* @__PURE__ */ new Map();
    for (const f of found) out.set(f.path, f.size);
    this.bytes = found.reduce((s, f) => s + f.size, 0);
    return out;
  }
  forget(files, path) {
    const size = files.get(path);
    if (size === void 0) return;
    files.delete(path);
    this.bytes -= size;
  }
  remember(files, path, size) {
    this.forget(files, path);
    files.set(path, size);
    this.bytes += size;
  }
  /** Oldest out until `size` more bytes fit. */
  makeRoom(files, size) {
    for (const [path] of files) {
      if (this.bytes + size <= this.maxBytes) break;
      try {
        this.io.unlinkSync(path);
      } catch (e) {
        if (e.code !== "ENOENT") throw e;
      }
      this.forget(files, path);
    }
  }
  /** The text in place under `path`: a temporary file of ours (never an existing one), then a rename. */
  writeAtomically(path, data) {
    const io = this.io;
    const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    const fd = io.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 384);
    try {
      for (let at = 0; at < data.length; ) at += io.writeSync(fd, data, at, data.length - at);
    } catch (e) {
      io.closeSync(fd);
      io.unlinkSync(temp);
      throw e;
    }
    io.closeSync(fd);
    try {
      io.renameSync(temp, path);
    } catch (e) {
      io.unlinkSync(temp);
      throw e;
    }
  }
  /** Where `text` is kept: written once, refreshed when archived again. Throws on any failure. */
  store(text) {
    if (!(this.maxBytes > 0)) throw new Failure("archiveMaxBytes is 0");
    const files = this.index ??= this.load();
    const data = Buffer.from(text, "utf8");
    const [shard, name] = archiveName(createHash("sha256").update(data).digest("hex"));
    const path = join3(this.dir, shard, name);
    this.folder(join3(this.dir, shard), false);
    let st;
    try {
      st = this.io.lstatSync(path);
    } catch (e) {
      if (e.code !== "ENOENT") throw e;
    }
    if (st !== void 0 && st.isFile() && st.size === data.length) {
      const now = /* @__PURE__ */ new Date();
      this.io.utimesSync(path, now, now);
      this.remember(files, path, data.length);
      this.counts.refreshed++;
      return path;
    }
    if (data.length > this.maxBytes) throw new Failure(`a text of ${data.length} bytes is over archiveMaxBytes (${this.maxBytes})`);
    this.forget(files, path);
    this.makeRoom(files, data.length);
    this.writeAtomically(path, data);
    this.remember(files, path, data.length);
    this.counts.written++;
    return path;
  }
};
function archiveWriter(options) {
  const trust = archiveTrust(options.dir, currentUser(process.env.HOME || homedir2()));
  const folder2 = new Folder("dir" in trust ? trust.dir : resolve2(options.dir), options.maxBytes, { ...fs, ...options.io });
  let told = false;
  const tell = (why, line = `cliffcompaction: archive: cannot keep a dropped text in ${folder2.dir} (${why}); summaries keep their usual lines where this happens`) => {
    if (told) return;
    told = true;
    options.log?.(line);
  };
  if ("problem" in trust) tell(trust.problem, `cliffcompaction: archive off: ${trust.problem}`);
  const archive = (text) => {
    try {
      if ("problem" in trust) throw new Failure(trust.problem);
      return folder2.store(text);
    } catch (e) {
      folder2.counts.failures++;
      tell(e instanceof Failure ? e.message : `${e.code ?? e.message}`);
      return null;
    }
  };
  return { archive, dir: folder2.dir, stats: () => ({ files: folder2.files, bytes: folder2.bytes, ...folder2.counts }) };
}

// pi-extension/archive.ts
function agentDir(env = process.env, home = homedir3(), host = detectHost()) {
  if (env.PI_CODING_AGENT_DIR) return env.PI_CODING_AGENT_DIR;
  if (host === "omp") return join4(home, env.PI_CONFIG_DIR || ".omp", "agent");
  return join4(home, ".pi", "agent");
}
function sessionFolderName(id) {
  if (typeof id === "string" && /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id)) return id;
  return "session-" + createHash2("sha256").update(String(id ?? "")).digest("hex").slice(0, 16);
}
function sessionId(ctx) {
  const sm = ctx?.sessionManager;
  try {
    return sm?.getSessionId?.();
  } catch {
    return void 0;
  }
}
var SessionArchives = class {
  constructor(warn, env = process.env) {
    this.warn = warn;
    this.env = env;
    this.writers = /* @__PURE__ */ new Map();
  }
  /** The folder a session's archive goes to under `cfg`. */
  folderFor(cfg, ctx) {
    return join4(cfg.archiveDir || join4(agentDir(this.env), "cliffcompaction", "archive"), sessionFolderName(sessionId(ctx)));
  }
  /** The session's writer, or undefined when the archive is off. */
  forSession(cfg, ctx) {
    if (!cfg.archive) return void 0;
    const dir = this.folderFor(cfg, ctx);
    const key = dir + "\0" + cfg.archiveMaxBytes;
    let w = this.writers.get(key);
    if (w === void 0) {
      w = archiveWriter({ dir, maxBytes: cfg.archiveMaxBytes, log: this.warn });
      this.writers.set(key, w);
    }
    this.last = w;
    return w;
  }
};

// pi-extension/rivals.ts
import { existsSync as existsSync2, readdirSync, readFileSync as readFileSync2, statSync } from "node:fs";
import { dirname as dirname2, isAbsolute as isAbsolute2, join as join5, resolve as resolve3 } from "node:path";
var MAX_READ = 8 * 1024 * 1024;
var OWN_MARK = "cliffcompaction: status | config | reload";
var EVENT = "session_before_compact";
var SOURCE = /\.(ts|js|mjs|cjs|mts|cts)$/;
var isFile = (p) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};
var isDir = (p) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};
function readJson(p) {
  try {
    return JSON.parse(readFileSync2(p, "utf8"));
  } catch {
    return void 0;
  }
}
function entries(path) {
  if (isFile(path)) return SOURCE.test(path) ? [path] : [];
  if (!isDir(path)) return [];
  const pkg = readJson(join5(path, "package.json"));
  const listed = pkg?.pi?.extensions;
  if (Array.isArray(listed)) return listed.filter((e) => typeof e === "string" && !/[*!]/.test(e)).map((e) => resolve3(path, e)).filter(isFile);
  return ["index.ts", "index.js", "index.mjs"].map((n) => join5(path, n)).filter(isFile);
}
function folder(dir) {
  let names;
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((n) => entries(join5(dir, n)));
}
function settingsPaths(file) {
  const s = readJson(file);
  if (!Array.isArray(s?.extensions)) return [];
  return s.extensions.filter((e) => typeof e === "string").map((e) => isAbsolute2(e) ? e : resolve3(dirname2(file), e));
}
function argvPaths(argv) {
  const out = [];
  argv.forEach((a, i) => {
    if ((a === "-e" || a === "--extension") && typeof argv[i + 1] === "string") out.push(resolve3(argv[i + 1]));
    else if (a.startsWith("--extension=")) out.push(resolve3(a.slice("--extension=".length)));
  });
  return out;
}
function extensionFiles(p) {
  const projects = p.cwd === void 0 ? [] : [join5(p.cwd, ".pi"), join5(p.cwd, ".omp")];
  const files = [
    ...folder(join5(p.agentDir, "extensions")),
    ...projects.flatMap((d) => folder(join5(d, "extensions"))),
    ...[join5(p.agentDir, "settings.json"), ...projects.map((d) => join5(d, "settings.json"))].filter(existsSync2).flatMap(settingsPaths).flatMap(entries),
    ...argvPaths(p.argv ?? []).flatMap(entries)
  ];
  return [...new Set(files)];
}
function answersCompaction(text) {
  return text.includes(EVENT) && !text.includes(OWN_MARK);
}
function rivalHandlers(p) {
  return extensionFiles(p).filter((f) => {
    try {
      if (statSync(f).size > MAX_READ) return false;
      return answersCompaction(readFileSync2(f, "utf8"));
    } catch {
      return false;
    }
  });
}
function overrideOf(ours, event) {
  const summary = event?.compactionEntry?.summary;
  if (summary === ours) return null;
  return event?.fromExtension === false ? "pi-default" : "other-compaction";
}
var OUTCOME = {
  "other-compaction": "another extension's compaction was kept instead",
  "pi-default": "an empty answer after ours made Pi run its own model summary",
  cancelled: "another extension cancelled it"
};
function rivalLines(files, last) {
  const lines = [];
  if (files.length > 0) {
    lines.push(`warning: ${files.length === 1 ? "another extension answers" : `${files.length} other extensions answer`} session_before_compact; Pi keeps the last answer, so one loaded after cliffcompaction replaces our compaction (even by answering {}):`);
    for (const f of files) lines.push(`  ${f}`);
  }
  if (last !== void 0) lines.push(`warning: our compaction @ ${last.at} was not used: ${OUTCOME[last.outcome]}`);
  return lines;
}

// pi-extension/branch.ts
var strings = (v) => Array.isArray(v) ? v.filter((f) => typeof f === "string") : [];
function carriedFiles(entries2) {
  const tracker = new FileTracker();
  for (const e of entries2) {
    const entry = e;
    if (entry?.type === "branch_summary") tracker.add(strings(entry.details?.readFiles), strings(entry.details?.modifiedFiles));
  }
  addCarriedFiles(tracker, entries2, void 0);
  return tracker;
}
function summarizeBranch(entries2, cfg, opts = {}) {
  const msgs = liveFromEntries(entries2).map((l) => l.message);
  if (msgs.length === 0) return null;
  const r = compact(msgs, "pi", { ...cfg, keepRecent: 0 }, { headLen: 0, hostJudgesGain: true, focus: parseFocus(opts.customInstructions), archive: opts.archive });
  if (r === null || r.parts.length === 0) return null;
  const files = filesTouched(msgs, "pi", carriedFiles(entries2));
  const details = {
    readFiles: files.read.sort(),
    modifiedFiles: files.modified.sort(),
    version: 1,
    method: "cliffcompaction",
    messages: msgs.length,
    parts: r.parts.length
  };
  if (opts.customInstructions) details.focus = opts.customInstructions;
  return { summary: renderSummary(r.parts) + formatFileLists({ read: details.readFiles, modified: details.modifiedFiles }), details };
}

// pi-extension/status.ts
var BRANCH_LINES = 40;
function archiveLine(c, writer) {
  if (!c.archive) return "archive: off";
  if (writer === void 0) return `archive: on, max ${c.archiveMaxBytes} bytes per session (nothing archived yet)`;
  const s = writer.stats();
  return `archive: on, ${writer.dir} \xB7 ${s.files} file(s), ${s.bytes} bytes of ${c.archiveMaxBytes}${s.failures > 0 ? ` \xB7 ${s.failures} could not be written` : ""}`;
}
function branchLines(last) {
  const d = last.result.details;
  const text = last.result.summary.split("\n");
  const shown = text.slice(0, BRANCH_LINES);
  if (text.length > BRANCH_LINES) shown.push(`\u2026 (${text.length - BRANCH_LINES} more lines)`);
  return [`last branch summary: @ ${last.at} from ${d.messages} message(s), ${d.parts} part(s), ${last.result.summary.length} chars, no model call`, ...shown];
}
function statusLines(loaded, last, branch, writer, warnings = []) {
  const c = loaded.config;
  const lines = [
    `cliffcompaction: ${c.enabled ? "on" : "off (Pi's default compaction runs)"}${c.shadow ? ", shadow (reports, never compacts)" : ""} \xB7 ${c.profile} profile`,
    `keepRecent ${c.keepRecent} \xB7 resultMaxChars ${c.resultMaxChars} \xB7 cmdMaxChars ${c.cmdMaxChars}`,
    `thoughtMaxChars ${c.thoughtMaxChars} \xB7 thinkingMaxChars ${c.thinkingMaxChars} \xB7 keepThinking ${c.keepThinking}`,
    `humanMaxChars ${c.humanMaxChars} \xB7 strict ${c.strict} \xB7 thresholdTokens ${c.thresholdTokens}`,
    archiveLine(c, writer),
    `config: ${loaded.path}${loaded.fileFound ? "" : " (not found, defaults)"}`
  ];
  if (last !== void 0) {
    const d = last.details;
    lines.push(`last: ${last.reason} @ ${last.at} live=${d.liveMessages} kept=${d.keptMessages} rung=${d.rung} est=${d.estTokensOut}${d.overBudget ? " (over thresholdTokens)" : ""}`);
  }
  for (const p of loaded.problems) lines.push(`problem: ${p}`);
  lines.push(...warnings);
  if (branch !== void 0) lines.push(...branchLines(branch));
  return lines.join("\n");
}

// pi-extension/refetches.ts
function branchRefetches(branch) {
  const entries2 = branch.filter(isObj);
  const messages = [];
  const before = [];
  for (const e of entries2) {
    before.push(messages.length);
    if (e.type === "message" && isObj(e.message) && e.message.role !== "system") messages.push(e.message);
  }
  const d = getDialect("pi");
  const headLen = Math.max(0, messages.findIndex((m) => d.isAssistant(m)));
  const cliffs = entries2.flatMap((e, i) => e.type === "compaction" && typeof e.summary === "string" ? [i] : []);
  const out = { cliffs: cliffs.length, count: 0, tokens: 0, perCliff: [] };
  cliffs.forEach((i, k) => {
    const e = entries2[i];
    const kept = entries2.findIndex((x) => x.id === e.firstKeptEntryId);
    const cut = kept >= 0 && kept < i ? before[kept] : before[i];
    const from = before[i];
    const to = k + 1 < cliffs.length ? before[cliffs[k + 1]] : messages.length;
    const found = cut > headLen ? refetchesIn(messages, d, { headLen, cut, summaryText: e.summary }, from, to) : [];
    out.perCliff.push(found.length);
    out.count += found.length;
    for (const f of found) out.tokens += f.tokens;
  });
  return out;
}
function refetchLine(r) {
  if (r.cliffs === 0) return "";
  return `re-fetches: ${r.count} after ${r.cliffs} compaction(s), ${r.tokens} tokens brought back (per compaction: ${r.perCliff.join(", ")}): calls that repeat one whose result a compaction dropped`;
}

// pi-extension/index.ts
var STATUS_KEY = "cliff";
function ui(ctx) {
  const u = ctx?.ui;
  return u ?? {};
}
function toReason(v) {
  if (v === "overflow" || v === "incomplete") return "overflow";
  if (v === "threshold" || v === "idle") return "threshold";
  if (v === "manual") return "manual";
  return void 0;
}
function carried(entries2, preparation) {
  const tracker = new FileTracker();
  addCarriedFiles(tracker, entries2, preparation);
  return tracker;
}
function rivals(ctx) {
  try {
    const cwd = ctx?.cwd;
    return rivalHandlers({ agentDir: agentDir(), cwd: typeof cwd === "string" ? cwd : void 0, argv: process.argv });
  } catch {
    return [];
  }
}
function branchOf(ctx) {
  try {
    const b = ctx?.sessionManager?.getBranch?.();
    return Array.isArray(b) ? b : [];
  } catch {
    return [];
  }
}
function status(state, ctx) {
  const refetched = refetchLine(branchRefetches(branchOf(ctx)));
  return statusLines(state.loaded, state.last, state.lastBranch, state.archives.last, [...refetched === "" ? [] : [refetched], ...rivalLines(rivals(ctx), state.overridden)]);
}
function settled(state, outcome, ctx) {
  state.answered = void 0;
  if (outcome === null) return;
  state.overridden = { at: (/* @__PURE__ */ new Date()).toISOString(), outcome };
  const named = rivals(ctx);
  ui(ctx).notify?.(rivalLines(named, state.overridden).join("\n"), "warning");
}
function reportProblems(state, ctx) {
  if (state.reportedProblems || state.loaded.problems.length === 0) return;
  state.reportedProblems = true;
  ui(ctx).notify?.(`cliffcompaction config: ${state.loaded.problems.join("; ")}`, "warning");
}
function beforeCompact(state, event, ctx) {
  const u = state.ui = ui(ctx);
  reportProblems(state, ctx);
  const cfg = state.loaded.config;
  if (!cfg.enabled) return void 0;
  const explicit = toReason(event?.reason);
  const reason = explicit !== void 0 && explicit !== "manual" ? explicit : explicit ?? state.pendingReason;
  state.pendingReason = "manual";
  try {
    const entries2 = Array.isArray(event?.branchEntries) ? event.branchEntries : [];
    const instructions = typeof event?.customInstructions === "string" && event.customInstructions.trim() !== "" ? event.customInstructions : void 0;
    const archive = cfg.shadow ? void 0 : state.archives.forSession(cfg, ctx)?.archive;
    const result = compactSession(liveFromEntries(entries2), cfg, { reason, customInstructions: instructions, files: carried(entries2, event?.preparation), archive });
    if (cfg.shadow) {
      u.setStatus?.(STATUS_KEY, result === null ? "cliff shadow \xB7 nothing to compact" : `cliff shadow \xB7 would keep ${result.details.keptMessages} msgs`);
      return { cancel: true };
    }
    if (result === null) return void 0;
    state.last = { reason, at: (/* @__PURE__ */ new Date()).toISOString(), details: result.details };
    state.answered = result.summary;
    u.setStatus?.(STATUS_KEY, `cliff \xB7 ${reason} \xB7 kept ${result.details.keptMessages}`);
    const tokensBefore = typeof event?.preparation?.tokensBefore === "number" ? event.preparation.tokensBefore : 0;
    return { compaction: { summary: result.summary, firstKeptEntryId: result.firstKeptEntryId, tokensBefore, details: result.details } };
  } catch (e) {
    u.notify?.(`cliffcompaction failed, Pi's default compaction runs instead: ${e.message}`, "warning");
    return void 0;
  }
}
function beforeTree(state, event, ctx) {
  const u = state.ui = ui(ctx);
  reportProblems(state, ctx);
  const cfg = state.loaded.config;
  const prep = event?.preparation;
  if (!cfg.enabled || cfg.shadow || prep?.userWantsSummary !== true) return void 0;
  try {
    const entries2 = Array.isArray(prep.entriesToSummarize) ? prep.entriesToSummarize : [];
    const instructions = typeof prep.customInstructions === "string" && prep.customInstructions.trim() !== "" ? prep.customInstructions : void 0;
    const result = summarizeBranch(entries2, cfg, { customInstructions: instructions, archive: state.archives.forSession(cfg, ctx)?.archive });
    if (result === null) return void 0;
    state.lastBranch = { at: (/* @__PURE__ */ new Date()).toISOString(), result };
    u.setStatus?.(STATUS_KEY, `cliff \xB7 branch summary \xB7 ${result.details.parts} parts`);
    return { summary: { summary: result.summary, details: result.details } };
  } catch (e) {
    u.notify?.(`cliffcompaction failed, Pi's default branch summary runs instead: ${e.message}`, "warning");
    return void 0;
  }
}
function cliffCommand(state, args, ctx) {
  const action = (args ?? "").trim().split(/\s+/)[0] || "status";
  const u = ui(ctx);
  if (action === "reload") {
    state.loaded = loadConfig();
    state.reportedProblems = false;
    const problems = state.loaded.problems.length;
    u.notify?.(`cliffcompaction: reloaded ${state.loaded.path}${problems ? ` (${problems} problem(s))` : ""}`, problems ? "warning" : "info");
    u.notify?.(status(state, ctx), "info");
  } else if (action === "config") {
    u.notify?.(JSON.stringify(state.loaded.config, null, 2), "info");
  } else {
    u.notify?.(status(state, ctx), "info");
  }
}
function cliffcompaction(api) {
  const state = {
    loaded: loadConfig(),
    last: void 0,
    pendingReason: "manual",
    reportedProblems: false,
    lastBranch: void 0,
    ui: {},
    answered: void 0,
    overridden: void 0,
    archives: new SessionArchives((line) => state.ui.notify?.(line, "warning"))
  };
  const on = api.on.bind(api);
  on("session_start", (_event, ctx) => reportProblems(state, ctx));
  on("auto_compaction_start", (event) => {
    state.pendingReason = toReason(event?.reason) ?? "threshold";
  });
  on("auto_compaction_end", () => {
    state.pendingReason = "manual";
  });
  on("session_before_compact", (event, ctx) => beforeCompact(state, event, ctx));
  on("session_before_tree", (event, ctx) => beforeTree(state, event, ctx));
  on("session_compact", (event, ctx) => {
    const outcome = state.answered === void 0 ? null : overrideOf(state.answered, event);
    if (state.answered !== void 0) settled(state, outcome, ctx);
    if (event?.fromExtension === true && outcome === null) ui(ctx).setStatus?.(STATUS_KEY, `cliff \xB7 compacted (${toReason(event?.reason) ?? state.last?.reason ?? "manual"})`);
  });
  on("session_compact_failed", (event, ctx) => {
    if (state.answered !== void 0) settled(state, event?.aborted === true ? "cancelled" : null, ctx);
  });
  api.registerCommand("cliff", {
    description: "cliffcompaction: status | config | reload",
    handler: async (args, ctx) => cliffCommand(state, args, ctx)
  });
}
export {
  cliffcompaction as default
};
