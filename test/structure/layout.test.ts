/**
 * The tree is the map: each part of a room is a folder entered through its `index.ts`, no folder
 * holds more than 15 sources side by side, and no import cycle runs through the code: none at run
 * time, and none through a type-only import either (each type lives in the module that makes it),
 * the benches included.
 */
import { describe, expect, it } from "vitest";
import { crowdedFolders, cycles, graph, pastFace, ROOMS } from "./imports.js";

const { files, edges, unresolved } = graph();

describe("layout", () => {
  it("reads the import graph of every room, each relative import resolving to a file", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges.length).toBeGreaterThan(200);
    expect(unresolved).toEqual([]);
  });

  it("has no import cycle, type-only imports and the benches included", () => {
    expect(cycles(files, edges)).toEqual([]);
    const withBench = graph([...ROOMS, "bench"]);
    expect(withBench.edges.filter((e) => e.typeOnly).length).toBeGreaterThan(100);
    expect(cycles(withBench.files, withBench.edges, "types too")).toEqual([]);
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
