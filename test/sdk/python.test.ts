/**
 * The Python SDK installs as a user installs it (`pip install ./sdk/python`, with pip's build isolation)
 * into a venv holding PyPI's `pulumi`, and `import pulumi_opsmanager` gives the resources, the provider
 * and the function. The venv (the slow part) is made once per Python and `pulumi` version, in the
 * git-ignored `.sdk-venv/` at the repository's root, and reused; the SDK is installed afresh each run
 * from a copy of sdk/python (pip writes build files beside the sources).
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";
import { missingTool, SDK } from "./sdk-support";

const execFileAsync = promisify(execFile);

/** PyPI's `pulumi`: at least the generators' minimum (3.269), the newest PyPI served when this was set. */
const PULUMI_PYPI = "3.272.0";
const DONE = ".installed";

// pip reads PyPI (or the index pip is configured with) at every install: setuptools for the build.
const missing =
  missingTool("python3", ["-m", "venv", "--help"], "Python 3 with its venv module") ??
  missingTool("python3", ["-m", "pip", "index", "versions", "pulumi"], "the Python package index");

/** The venv with `pulumi==PULUMI_PYPI`, made on first use (in a temp folder, moved into place when whole). */
async function venv(): Promise<string> {
  const python = execFileSync("python3", ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], {
    encoding: "utf8",
  }).trim();
  const base = path.join(repoRoot(), ".sdk-venv");
  const dir = path.join(base, `python${python}-pulumi${PULUMI_PYPI}`);
  if (existsSync(path.join(dir, DONE))) return dir;
  await fsp.mkdir(base, { recursive: true });
  // A venv's scripts name its own path: it is made where it stays, and marked whole at the end.
  await fsp.rm(dir, { recursive: true, force: true });
  await execFileAsync("python3", ["-m", "venv", dir], { timeout: 300_000 });
  await execFileAsync(path.join(dir, "bin", "pip"), ["install", "--quiet", `pulumi==${PULUMI_PYPI}`], {
    timeout: 600_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  await fsp.writeFile(path.join(dir, DONE), `${PULUMI_PYPI}\n`);
  return dir;
}

describeNeeding("the Python SDK installed into a venv", missing, () => {
  let env: string;
  let work: string;

  beforeAll(async () => {
    env = await venv();
    work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-sdk-python-"));
    await fsp.cp(path.join(SDK, "python"), path.join(work, "python"), { recursive: true });
    // As a user installs it, with pip's build isolation; both tests below use this install.
    await execFileAsync(path.join(env, "bin", "pip"), ["install", "--quiet", path.join(work, "python")], {
      cwd: work,
      timeout: 600_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  }, 900_000);

  afterAll(async () => {
    if (work !== undefined) await fsp.rm(work, { recursive: true, force: true });
  });

  it("pip installs ./sdk/python, and `import pulumi_opsmanager` gives its resources, provider and function", async () => {
    const script = [
      "import pulumi_opsmanager as o, importlib.metadata as m",
      "print(m.version('pulumi_opsmanager'))",
      "print(','.join(sorted(n for n in ('OrgApiKey','ApiKeyProjectAssignment','LogCollectionJob','Provider','get_org_api_keys','OrgRole') if hasattr(o, n))))",
    ].join("\n");
    const { stdout } = await execFileAsync(path.join(env, "bin", "python"), ["-c", script], {
      cwd: os.tmpdir(),
      timeout: 120_000,
    });
    const [version, names] = stdout.trim().split("\n");
    expect(version).toBe("0.1.0");
    expect(names).toBe(
      "ApiKeyProjectAssignment,LogCollectionJob,OrgApiKey,OrgRole,Provider,get_org_api_keys",
    );
  }, 600_000);

  it("runs a program under Pulumi's mocks: an OrgApiKey registered with its roles, getOrgApiKeys unwrapping the plugin's answer", async () => {
    // The plugin answers getOrgApiKeys with its list as the one property of the result (`keys`).
    const program = `
import asyncio, json, pulumi

class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        print(json.dumps({"type": args.typ, "inputs": args.inputs}, sort_keys=True))
        return [args.name + "-id", dict(args.inputs, apiKeyId="5f00000000000000000000aa")]

    def call(self, args):
        return {"keys": [{"id": "5f00000000000000000000aa", "publicKey": "zzhpslzl", "roles": [{"orgId": "o1", "roleName": "ORG_MEMBER"}]}]}

pulumi.runtime.set_mocks(Mocks(), preview=False)
import pulumi_opsmanager as o

keys = o.get_org_api_keys(org_id="5f0000000000000000000001")
print(json.dumps(keys))
key = o.OrgApiKey("ci", org_id="5f0000000000000000000001", desc="CI", roles=[o.OrgRole.ORG_MEMBER, o.OrgRole.ORG_READ_ONLY])
# The registration runs on the event loop: wait for its answer.
print(json.dumps({"apiKeyId": asyncio.get_event_loop().run_until_complete(key.api_key_id.future())}))
`;
    const { stdout } = await execFileAsync(path.join(env, "bin", "python"), ["-c", program], {
      cwd: os.tmpdir(),
      timeout: 120_000,
    });
    const lines = stdout.trim().split("\n");
    expect(JSON.parse(lines[0]!)).toEqual([
      {
        id: "5f00000000000000000000aa",
        publicKey: "zzhpslzl",
        roles: [{ orgId: "o1", roleName: "ORG_MEMBER" }],
      },
    ]);
    expect(lines.map((l) => JSON.parse(l))).toContainEqual({
      type: "opsmanager:index:OrgApiKey",
      inputs: { orgId: "5f0000000000000000000001", desc: "CI", roles: ["ORG_MEMBER", "ORG_READ_ONLY"] },
    });
    expect(JSON.parse(lines.at(-1)!)).toEqual({ apiKeyId: "5f00000000000000000000aa" });
  }, 120_000);
});
