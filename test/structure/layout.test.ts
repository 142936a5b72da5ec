/**
 * The tree is the map: each part of a room is a folder entered through its `index.ts`, no folder
 * holds more than 15 sources side by side, and no import cycle runs through the code (type-only
 * imports aside, since the compiler erases them).
 */
import { describe, expect, it } from "vitest";
import { crowdedFolders, cycles, graph, pastFace } from "./imports.js";

const { files, edges, unresolved } = graph();

describe("layout", () => {
  it("reads the import graph of every room, each relative import resolving to a file", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges.length).toBeGreaterThan(200);
    expect(unresolved).toEqual([]);
  });

  it("has no import cycle apart from type-only imports", () => {
    expect(cycles(files, edges)).toEqual([]);
  });

  it("holds at most 15 sources directly in any folder", () => {
    expect(crowdedFolders(files, 15)).toEqual([]);
  });

  it("enters a sub-folder from outside only through its index.ts", () => {
    const past = edges.flatMap((e) => {
      const door = pastFace(e);
      return door === undefined ? [] : [`${e.from} -> ${e.to} (door: ${door})`];
    });
    expect(past).toEqual([]);
  });
});
