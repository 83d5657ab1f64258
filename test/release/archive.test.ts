/**
 * The release's archive step (tools/release/archive.js) on small files: the same files give the same
 * bytes whatever their modes, times and order on disk, the entries sit at the root with the modes the
 * CLI needs, and the gzip header carries no time, name or OS. The release's own archives are checked in
 * ./plugin-binary.test.ts; the bundle's check for modules left to load from disk here too.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

type Entry = { name: string; from: string; executable?: boolean };
const { archiveEntries, writeArchive } = require("../../tools/release/archive") as {
  writeArchive(options: { file: string; entries: Entry[]; mtime: Date }): Promise<string>;
  archiveEntries(
    file: string,
  ): Promise<{ name: string; mode: number; uid: number; gid: number; mtime: Date; uname?: string }[]>;
};
const { diskLoads } = require("../../tools/release/bundle") as {
  diskLoads(code: string, builtin: { has(name: string): boolean }): string[];
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "opsm-archive-test-"));
  dirs.push(dir);
  return dir;
}

/** The three files of a plugin archive in a new folder, with the given modes and file times. */
function files(mode: number, time: Date): Entry[] {
  const dir = folder();
  const entries: Entry[] = [
    { name: "pulumi-resource-opsmanager", from: path.join(dir, "bin"), executable: true },
    { name: "README.md", from: path.join(dir, "readme") },
    { name: "LICENSE", from: path.join(dir, "license") },
  ];
  writeFileSync(entries[0]!.from, "#!/bin/sh\necho 12345\n".repeat(1000));
  writeFileSync(entries[1]!.from, "# the plugin\n");
  writeFileSync(entries[2]!.from, "Apache License\n");
  for (const e of entries) {
    chmodSync(e.from, mode);
    utimesSync(e.from, time, time);
  }
  return entries;
}

const MTIME = new Date("2026-11-30T12:00:00Z");

describe("the archive step", () => {
  it("the same files give the same bytes, whatever their modes, times and order", async () => {
    const out = folder();
    const a = await writeArchive({
      file: path.join(out, "a.tar.gz"),
      entries: files(0o700, new Date(2020, 0, 1)),
      mtime: MTIME,
    });
    const b = await writeArchive({
      file: path.join(out, "b.tar.gz"),
      entries: files(0o664, new Date()).reverse(),
      mtime: MTIME,
    });
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });

  it("puts each file at the root under its name, the executable 0755 and the rest 0644, with one time and no owner", async () => {
    const file = await writeArchive({
      file: path.join(folder(), "p.tar.gz"),
      entries: files(0o600, new Date()),
      mtime: MTIME,
    });
    const entries = await archiveEntries(file);
    expect(entries.map((e) => [e.name, (e.mode & 0o7777).toString(8)])).toEqual([
      ["LICENSE", "644"],
      ["README.md", "644"],
      ["pulumi-resource-opsmanager", "755"],
    ]);
    for (const e of entries) {
      // An empty uid or gid field, which tar reads as 0 (root).
      expect([e.uid ?? 0, e.gid ?? 0, e.uname ?? "", e.mtime.getTime()]).toEqual([0, 0, "", MTIME.getTime()]);
    }
  });

  it("writes a gzip header with no time, no file name and no OS", async () => {
    const file = await writeArchive({
      file: path.join(folder(), "p.tar.gz"),
      entries: files(0o644, new Date()),
      mtime: MTIME,
    });
    const header = readFileSync(file).subarray(0, 10);
    // RFC 1952: ID1 ID2 CM FLG MTIME(4) XFL OS; FLG 0 means no FNAME, FCOMMENT or FEXTRA; OS 255 unknown.
    expect([...header.subarray(0, 4)]).toEqual([0x1f, 0x8b, 8, 0]);
    expect(header.readUInt32LE(4)).toBe(0);
    expect(header[9]).toBe(255);
  });

  it("refuses an entry name that is not a plain file name", async () => {
    const [bin] = files(0o755, new Date());
    await expect(
      writeArchive({
        file: path.join(folder(), "p.tar.gz"),
        entries: [{ ...bin!, name: "bin/x" }],
        mtime: MTIME,
      }),
    ).rejects.toThrow(/bin\/x: not a plain file name/);
  });
});

describe("the bundle's check for modules it would load from disk", () => {
  const builtin = { has: (name: string) => ["fs", "node:fs", "net"].includes(name) };

  it("passes require of a built-in module by its literal name", () => {
    expect(
      diskLoads(
        'const fs = require("fs"); const n = require(\n/* webpackIgnore */ "net"); obj.require = 1;',
        builtin,
      ),
    ).toEqual([]);
  });

  it("passes require.resolve of an allowed literal name, and finds one of any other name", () => {
    expect(diskLoads('const dir = require.resolve("fs");', builtin)).toEqual([]);
    expect(diskLoads('require.resolve("zod");\nrequire.resolve(name);', builtin)).toEqual([
      'line 1: require used other than as require("<built-in>")',
      'line 2: require used other than as require("<built-in>")',
    ]);
  });

  it("finds require passed as a value, a computed or non-built-in name, import() even of a built-in, and eval", () => {
    const code = [
      "loadUndici(require);",
      'require("undici/lib/api");',
      "require(name);",
      'import("zod");',
      'eval("x");',
      'import("node:fs");',
    ].join("\n");
    expect(diskLoads(code, builtin)).toEqual([
      'line 1: require used other than as require("<built-in>")',
      'line 2: require used other than as require("<built-in>")',
      'line 3: require used other than as require("<built-in>")',
      "line 4: import()",
      "line 5: eval",
      "line 6: import()",
    ]);
  });
});
