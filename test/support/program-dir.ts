/**
 * Temporary "Pulumi program" directories for driving the dynamic-provider host without the CLI.
 *
 * The engine starts the host with its working directory at the program, and the host resolves every
 * `require(...)` in a serialized provider from there. A program directory built here therefore holds,
 * in `node_modules`, exactly what a user's program would: this repository's package as `npm pack`
 * ships it, its runtime dependencies, and any extra local packages a test needs.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Name of this repository's package, as it appears in `node_modules` of a program. */
export const PACKAGE_NAME = "pulumi-opsmanager";

/** Runtime dependencies that are always linked into a program directory. */
const BASE_RUNTIME_DEPS = ["undici", "zod", "@pulumi/pulumi"] as const;

/** Options for {@link makeProgramDir}. */
export interface ProgramDirOptions {
  /**
   * Directories of local packages (each with a `package.json`) to copy into the program's
   * `node_modules` under their `package.json` name. Their own `node_modules` folders are not copied:
   * their dependencies resolve through the program's `node_modules`, as for an installed package.
   */
  packages?: string[];
  /**
   * Whether to place this repository's package, as packed by `npm pack`, in `node_modules`.
   * Defaults to `true`. Requires `dist/` to have been built (`npm run build`).
   */
  packRepo?: boolean;
  /**
   * Dependencies to link from another directory instead of the repository's `node_modules`, by package
   * name: `{ "@pulumi/pulumi": "/path/to/node_modules/@pulumi/pulumi" }` runs the program on that SDK.
   */
  linked?: Record<string, string>;
}

/** A temporary program directory. */
export interface ProgramDir {
  /** Absolute path of the program directory (the host's working directory). */
  dir: string;
  /** Removes the directory and everything in it. Safe to call more than once. */
  cleanup(): Promise<void>;
}

interface PackageJson {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

let repoRootCache: string | undefined;

/**
 * Returns the repository root: the nearest ancestor of this file whose `package.json` is named
 * {@link PACKAGE_NAME}.
 */
export function repoRoot(): string {
  if (repoRootCache !== undefined) {
    return repoRootCache;
  }
  let dir = __dirname;
  for (;;) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as PackageJson;
      if (pkg.name === PACKAGE_NAME) {
        repoRootCache = dir;
        return dir;
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(`cannot find the ${PACKAGE_NAME} repository root above ${__dirname}`);
    }
    dir = parent;
  }
}

const PACK_DIR_PREFIX = "opsm-pack-";

let packPromise: Promise<string> | undefined;
let packDir: string | undefined;

/**
 * Packs the repository with `npm pack --ignore-scripts` (no build is run: `dist/` must exist) and
 * returns the path of the tarball. The tarball is made once per process and reused; it is removed
 * when the process exits.
 */
export function packRepo(): Promise<string> {
  if (packPromise === undefined) {
    packPromise = doPack();
    // Let a later call retry when this one failed.
    packPromise.catch(() => {
      packPromise = undefined;
    });
  }
  return packPromise;
}

async function doPack(): Promise<string> {
  await sweepStalePackDirs();
  const dest = path.join(os.tmpdir(), `${PACK_DIR_PREFIX}${process.pid}`);
  await fsp.rm(dest, { recursive: true, force: true });
  await fsp.mkdir(dest, { recursive: true });
  if (packDir === undefined) {
    // Test workers are not always let to exit normally: stale directories are also swept above.
    process.once("exit", () => {
      if (packDir !== undefined) {
        rmSync(packDir, { recursive: true, force: true });
      }
    });
  }
  packDir = dest;
  const { stdout } = await execFileAsync(
    "npm",
    ["pack", "--json", "--ignore-scripts", "--pack-destination", dest],
    { cwd: repoRoot(), maxBuffer: 64 * 1024 * 1024 },
  );
  // npm prints a JSON array; anything before it (notices) is skipped.
  const start = stdout.indexOf("[");
  const entries = JSON.parse(stdout.slice(start)) as Array<{ filename: string }>;
  const filename = entries[0]?.filename;
  if (filename === undefined) {
    throw new Error(`npm pack printed no tarball name: ${stdout}`);
  }
  // npm turns "@scope/name" into "scope-name-<version>.tgz"; the bare name is what is written.
  return path.join(dest, path.basename(filename));
}

/** Removes pack directories (`opsm-pack-<pid>`) left behind by test processes that no longer run. */
async function sweepStalePackDirs(): Promise<void> {
  const names = await fsp.readdir(os.tmpdir()).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(name.slice(PACK_DIR_PREFIX.length));
    if (!name.startsWith(PACK_DIR_PREFIX) || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) {
      continue;
    }
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch (err) {
      alive = (err as NodeJS.ErrnoException).code === "EPERM";
    }
    if (!alive) {
      await fsp.rm(path.join(os.tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/**
 * Fills `nodeModules` as installing this package would, downloading nothing: the package as `npm pack`
 * ships it, extracted to `node_modules/pulumi-opsmanager` (unless `packRepo` is `false`), and `undici`,
 * `zod`, `@pulumi/pulumi`, the packed package's `dependencies` and `peerDependencies` and every name in
 * `links`, symlinked from the repository's `node_modules`. Returns what a program's `package.json`
 * would list for them.
 */
export async function fillNodeModules(
  nodeModules: string,
  opts: { packRepo?: boolean; links?: readonly string[]; linked?: Record<string, string> } = {},
): Promise<Record<string, string>> {
  const root = repoRoot();
  await fsp.mkdir(nodeModules, { recursive: true });
  const deps = new Set<string>([...BASE_RUNTIME_DEPS, ...(opts.links ?? [])]);
  const programDeps: Record<string, string> = {};

  if (opts.packRepo ?? true) {
    const tgz = await packRepo();
    const target = path.join(nodeModules, PACKAGE_NAME);
    await fsp.mkdir(target, { recursive: true });
    await execFileAsync("tar", ["-xzf", tgz, "-C", target, "--strip-components=1"]);
    const packed = JSON.parse(await fsp.readFile(path.join(target, "package.json"), "utf8")) as PackageJson;
    for (const name of Object.keys(packed.dependencies ?? {})) deps.add(name);
    for (const name of Object.keys(packed.peerDependencies ?? {})) deps.add(name);
    programDeps[PACKAGE_NAME] = packed.version ?? "*";
  }

  for (const name of deps) {
    const source = opts.linked?.[name] ?? path.join(root, "node_modules", ...name.split("/"));
    if (!existsSync(source)) {
      throw new Error(`runtime dependency ${name} is not installed at ${source}`);
    }
    const link = path.join(nodeModules, ...name.split("/"));
    await fsp.mkdir(path.dirname(link), { recursive: true });
    await fsp.symlink(await fsp.realpath(source), link, "dir");
    programDeps[name] = "*";
  }
  return programDeps;
}

/**
 * Creates a temporary program directory (under `os.tmpdir()`) with a `package.json` and a
 * `node_modules` in which:
 *
 * - this repository's package is extracted from its packed tarball to `node_modules/pulumi-opsmanager`
 *   (unless `packRepo` is `false`), so tests see exactly the files that would be published;
 * - `undici`, `zod`, `@pulumi/pulumi` and every `dependencies` / `peerDependencies` entry of the packed
 *   `package.json` are symlinked from the repository's `node_modules` (nothing is downloaded), or from
 *   the directory `linked` gives for them;
 * - each directory in `packages` is copied in under its `package.json` name.
 */
export async function makeProgramDir(opts: ProgramDirOptions = {}): Promise<ProgramDir> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-program-"));
  let removed = false;
  const cleanup = async (): Promise<void> => {
    if (!removed) {
      removed = true;
      await fsp.rm(dir, { recursive: true, force: true });
    }
  };
  try {
    const nodeModules = path.join(dir, "node_modules");
    const programDeps = await fillNodeModules(nodeModules, { packRepo: opts.packRepo, linked: opts.linked });

    for (const pkgDir of opts.packages ?? []) {
      const manifest = JSON.parse(
        await fsp.readFile(path.join(pkgDir, "package.json"), "utf8"),
      ) as PackageJson;
      if (!manifest.name) {
        throw new Error(`${pkgDir}/package.json has no name`);
      }
      const target = path.join(nodeModules, ...manifest.name.split("/"));
      await fsp.rm(target, { recursive: true, force: true });
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.cp(pkgDir, target, {
        recursive: true,
        filter: (src) => path.basename(src) !== "node_modules" || src === pkgDir,
      });
      programDeps[manifest.name] = manifest.version ?? "*";
    }

    const programManifest = {
      name: "host-test-program",
      version: "0.0.0",
      private: true,
      main: "index.js",
      dependencies: programDeps,
    };
    await fsp.writeFile(path.join(dir, "package.json"), `${JSON.stringify(programManifest, null, 2)}\n`);
    return { dir, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
