/**
 * The committed SDKs (Node.js, Python, Go, .NET) are exactly what Pulumi's generators make of the
 * committed schema (`npm run gen:sdk`), and the Go SDK builds and vets against sdk/v3 v3.274.1 with
 * its committed go.mod and go.sum. Needs Go (a skip without it, a failure under CI). No .NET is on this machine kind:
 * the .NET SDK is not compiled here.
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
import { committedFiles, missingTool, SDK } from "./sdk-support";

const execFileAsync = promisify(execFile);
const LANGUAGES = ["nodejs", "python", "go", "dotnet"];

/** Every file under `dir`, relative to it, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describeNeeding("the generated SDKs", missingTool("go", ["version"], "Go"), () => {
  let fresh: string;

  beforeAll(async () => {
    fresh = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-sdkgen-"));
    const schema = path.join(repoRoot(), "provider", "plugin", "schema.json");
    const options = { timeout: 600_000, maxBuffer: 16 * 1024 * 1024 };
    await execFileAsync("go", ["run", ".", "-schema", schema, "-out", fresh], {
      ...options,
      cwd: path.join(repoRoot(), "tools", "sdkgen"),
    });
    // .NET's generator is a module of its own (pkg/v3 v3.224.0, the last with it).
    await execFileAsync("go", ["run", ".", "-schema", schema, "-out", path.join(fresh, "dotnet")], {
      ...options,
      cwd: path.join(repoRoot(), "tools", "sdkgen-dotnet"),
    });
  }, 600_000);

  afterAll(async () => {
    if (fresh !== undefined) await fsp.rm(fresh, { recursive: true, force: true });
  });

  for (const language of LANGUAGES) {
    it(`sdk/${language} is what regenerating it gives, file for file and byte for byte`, async () => {
      const generated = await filesUnder(path.join(fresh, language));
      expect(committedFiles(language), `the files of sdk/${language} (run npm run gen:sdk)`).toEqual(
        generated,
      );
      const differ = generated.filter(
        (f) => !readFileSync(path.join(fresh, language, f)).equals(readFileSync(path.join(SDK, language, f))),
      );
      expect(differ, `files of sdk/${language} that differ from a fresh generation`).toEqual([]);
    });
  }

  it("the Go SDK builds and vets with its committed go.mod and go.sum", async () => {
    const env = { ...process.env, GOFLAGS: "-mod=readonly" };
    const options = { cwd: SDK, env, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 };
    await execFileAsync("go", ["build", "./..."], options);
    await execFileAsync("go", ["vet", "./..."], options);
    const mod = readFileSync(path.join(SDK, "go.mod"), "utf8");
    expect(mod).toMatch(/^module github\.com\/pulumi-opsmanager\/pulumi-opsmanager\/sdk$/m);
    expect(mod).toMatch(/^\tgithub\.com\/pulumi\/pulumi\/sdk\/v3 v3\.274\.1$/m);
  }, 600_000);
});
