/**
 * The README's first program, as a reader copies it: it imports the Node.js SDK by the name it is
 * published under, and type-checks against that SDK (with the SDK's own tsconfig, on the oldest
 * `@pulumi/pulumi` the SDK declares, installed once into `.sdk-floor/`, as test/sdk/nodejs.test.ts does).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";
import { registryUnreachable } from "../support/registry";
import { installedSdk, sdkInstalled } from "../support/sdk-floor";

const execFileAsync = promisify(execFile);
const SDK = path.join(repoRoot(), "sdk", "nodejs");
const manifest = JSON.parse(readFileSync(path.join(SDK, "package.json"), "utf8")) as {
  name: string;
  dependencies: Record<string, string>;
};
const floor = /^\^(\d+\.\d+\.\d+)$/.exec(manifest.dependencies["@pulumi/pulumi"] ?? "")?.[1] ?? "";
const offline = sdkInstalled(floor) ? undefined : registryUnreachable(`@pulumi/pulumi@${floor}`);

/** The README's first `ts` block. */
const program =
  /```ts\n([\s\S]*?)```/.exec(readFileSync(path.join(repoRoot(), "README.md"), "utf8"))?.[1] ?? "";
const IMPORT = `from "${manifest.name}";`;

it("the README's first program imports the Node.js SDK by its published name", () => {
  expect(program.split("\n")[0]).toBe(`import * as opsmanager ${IMPORT}`);
});

describeNeeding(
  `the README's first program on the Node.js SDK (@pulumi/pulumi ${floor})`,
  floor === "" ? "a ^X.Y.Z dependency on @pulumi/pulumi in sdk/nodejs/package.json" : offline,
  () => {
    let work: string;

    beforeAll(async () => {
      const sdk = await installedSdk(floor);
      work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-readme-program-"));
      await fsp.cp(SDK, work, { recursive: true });
      await fsp.mkdir(path.join(work, "node_modules", "@types"), { recursive: true });
      await fsp.symlink(path.dirname(sdk), path.join(work, "node_modules", "@pulumi"), "dir");
      await fsp.symlink(
        path.join(repoRoot(), "node_modules", "@types", "node"),
        path.join(work, "node_modules", "@types", "node"),
        "dir",
      );
    }, 300_000);

    afterAll(async () => {
      if (work !== undefined) await fsp.rm(work, { recursive: true, force: true });
    });

    it("type-checks as it is written", async () => {
      expect(program).toContain(IMPORT);
      // The SDK's sources stand in for the installed package: the one line that names it points at them.
      await fsp.writeFile(path.join(work, "readme.ts"), program.replace(IMPORT, 'from "./index";'));
      const config = JSON.parse(
        (await fsp.readFile(path.join(work, "tsconfig.json"), "utf8")).replace(/^\s*\/\/.*$/gm, ""),
      ) as { files: string[] };
      config.files = [...config.files, "readme.ts"];
      await fsp.writeFile(path.join(work, "tsconfig.readme.json"), JSON.stringify(config));
      await execFileAsync(
        process.execPath,
        [require.resolve("typescript/bin/tsc"), "-p", path.join(work, "tsconfig.readme.json"), "--noEmit"],
        { cwd: work, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
      ).catch((error: { stdout?: string }) => {
        throw new Error(`tsc of the README's first program failed:\n${error.stdout ?? String(error)}`);
      });
    }, 300_000);
  },
);
