/**
 * The package as a user installs it: the tarball `npm pack` makes, installed by npm into a fresh program
 * (as the README's install section says to, until the package is published), required by name there,
 * and type-checked in the two layouts users' programs have: `pulumi new typescript`'s (CommonJS,
 * `strict`, no `esModuleInterop`, no `skipLibCheck`) and an ES module with `module: nodenext`.
 */
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiRoot } from "../../provider/api/api-root";
import { HttpClient } from "../../provider/client";
import { describeNeeding } from "../support/prerequisite";
import { packRepo, repoRoot } from "../support/program-dir";
import { PULUMI_NEW_TSCONFIG } from "../support/pulumi-new";
import { registryUnreachable } from "../support/registry";

const execFileAsync = promisify(execFile);

/** The versions this repository has installed: npm finds them in its cache (`--prefer-offline`). */
function installedVersion(name: string): string {
  const manifest = path.join(repoRoot(), "node_modules", ...name.split("/"), "package.json");
  return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
}

// npm installs the program's dependencies and the tarball's from the npm registry: without it, skip and
// say so (any other failure of the install fails the suite).
const offline = registryUnreachable(`@pulumi/pulumi@${installedVersion("@pulumi/pulumi")}`);

const ESM_TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: "ES2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    noEmit: true,
  },
  files: ["index.ts"],
};

// A program that uses every name the package exports, so that every public declaration is checked.
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import {
  ApiError, ApiKeyProjectAssignment, AuthenticationError, ConfigError, GROUP_ROLES, getOrgApiKeys, InputError, InvalidArgumentError,
  LOG_TYPES, LogCollectionJob, NetworkError, ORG_ROLES, OpsManagerError, OrgApiKey, RESOURCE_TYPES,
  ResponseShapeError, ResponseTooLargeError, TimeoutError, TlsError, UncertainCreateError,
} from "pulumi-opsmanager";
import type {
  ApiKey, ApiKeyChange, ApiKeyProjectAssignmentArgs, ApiKeyProjectAssignmentInputs,
  ApiKeyProjectAssignmentOutputs, PreviousAssignment, ApiKeySelector, GetOrgApiKeysArgs, GroupRole, LogCollectionJobArgs,
  LogCollectionJobInputs, LogCollectionJobOutputs, LogType, OrgApiKeyArgs, OrgApiKeyInputs,
  OrgApiKeyOutputs, OrgApiKeyState, OrgRole, PageOptions, ProjectRole, ResourceType, Role,
} from "pulumi-opsmanager";

const config = new pulumi.Config("quickstart");
const orgId = config.require("orgId");
const roles: OrgRole[] = ["ORG_MEMBER", "ORG_READ_ONLY"];
const keyArgs: OrgApiKeyArgs = { orgId, publicKey: config.require("publicKey"), desc: "CI", roles };
const key = new OrgApiKey("ci-key", keyArgs);
const jobArgs: LogCollectionJobArgs = {
  groupId: config.require("groupId"),
  resourceType: "REPLICASET" satisfies ResourceType,
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 10_000_000,
  logTypes: ["DATABASE", "AUTOMATION_AGENT"] satisfies LogType[],
  redacted: true,
};
const job = new LogCollectionJob("rs0-logs", jobArgs);
const assignmentArgs: ApiKeyProjectAssignmentArgs = {
  apiKeyId: key.apiKeyId,
  groupId: config.require("groupId"),
  roles: ["GROUP_READ_ONLY"] satisfies GroupRole[],
};
const assignment = new ApiKeyProjectAssignment("ci-key-in-project", assignmentArgs);
export const previous: pulumi.Output<PreviousAssignment> = assignment.previous;
const lister: GetOrgApiKeysArgs = { orgId };
export const keys: Promise<ApiKey[]> = getOrgApiKeys(lister);
export const projectRoles: pulumi.Output<ProjectRole[]> = key.projectRoles;
export const jobId: pulumi.Output<string> = job.jobId;
export const lists: readonly string[][] = [[...ORG_ROLES], [...GROUP_ROLES], [...LOG_TYPES], [...RESOURCE_TYPES]];
export const errors = [
  ApiError, AuthenticationError, ConfigError, InputError, InvalidArgumentError, NetworkError, OpsManagerError,
  ResponseShapeError, ResponseTooLargeError, TimeoutError, TlsError, UncertainCreateError,
].map((e) => e.name);
export type Used = [
  ApiKeyProjectAssignmentInputs, ApiKeyProjectAssignmentOutputs, ApiKeyChange, ApiKeySelector, GroupRole, LogCollectionJobInputs, LogCollectionJobOutputs, OrgApiKeyInputs,
  OrgApiKeyOutputs, OrgApiKeyState, PageOptions, Role,
];
`;

let dir: string;

/** Runs `tsc --noEmit -p <project>` with the program's own TypeScript; resolves to its whole output. */
async function tsc(project: string): Promise<{ code: number; output: string }> {
  const bin = path.join(dir, "node_modules", "typescript", "bin", "tsc");
  try {
    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      [bin, "--noEmit", "--pretty", "false", "-p", project],
      {
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : 1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

beforeAll(async () => {
  if (offline) return;
  const tarball = await packRepo();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-install-"));
  fs.writeFileSync(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name: "install-test-program", version: "0.0.0", private: true }, null, 2)}\n`,
  );
  await execFileAsync(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      tarball,
      `@pulumi/pulumi@${installedVersion("@pulumi/pulumi")}`,
      `typescript@${installedVersion("typescript")}`,
      `@types/node@${installedVersion("@types/node")}`,
    ],
    { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
  );
}, 300_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describeNeeding(
  "the packed package installed by npm into a fresh program",
  offline && `the npm registry (${offline})`,
  () => {
    it("is installed as a copy of the tarball, with its dependencies, and loads by name", async () => {
      const installed = path.join(dir, "node_modules", "pulumi-opsmanager");
      expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
      const manifest = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8"));
      expect(manifest.name).toBe("pulumi-opsmanager");
      const script = `
      const om = require("pulumi-opsmanager");
      const host = require("pulumi-opsmanager/host");
      const sim = require("pulumi-opsmanager/simulator");
      console.log(JSON.stringify({
        main: require.resolve("pulumi-opsmanager"),
        exports: Object.keys(om).sort(),
        host: Object.keys(host).sort(),
        simulator: typeof sim.startSimulator,
        zod: require.resolve("zod", { paths: [require.resolve("pulumi-opsmanager")] }),
      }));`;
      const { stdout } = await execFileAsync(process.execPath, ["-e", script], { cwd: dir });
      const loaded = JSON.parse(stdout) as Record<string, unknown>;
      expect(loaded.main).toBe(
        path.join(fs.realpathSync(dir), "node_modules/pulumi-opsmanager/dist/provider/index.js"),
      );
      expect(loaded.exports).toEqual(
        expect.arrayContaining(["OrgApiKey", "LogCollectionJob", "getOrgApiKeys"]),
      );
      // The names serialized providers call in state written by every earlier version.
      expect(loaded.host).toEqual([
        "apiKeyProjectAssignmentMethods",
        "configure",
        "logCollectionJobMethods",
        "orgApiKeyMethods",
      ]);
      expect(loaded.simulator).toBe("function");
      expect(String(loaded.zod)).toContain(path.join(fs.realpathSync(dir), "node_modules"));
    });

    it("runs the simulator as `npx pulumi-opsmanager-simulator`, which prints its settings and answers with them", async () => {
      // Its own process group, so that stopping it stops the simulator npx started, not npx alone.
      const child = spawn(
        "npx",
        ["--no-install", "pulumi-opsmanager-simulator", "--port", "0", "--keys", "2"],
        {
          cwd: dir,
          stdio: ["ignore", "pipe", "pipe"],
          detached: true,
        },
      );
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      let stdout = "";
      let stderr = "";
      child.stderr.on("data", (c: Buffer) => {
        stderr += c.toString();
      });
      try {
        await new Promise<void>((resolve, reject) => {
          child.stdout.on("data", (c: Buffer) => {
            stdout += c.toString();
            if (stdout.includes("# Press Ctrl+C to stop.\n")) resolve();
          });
          child.once("exit", (code) => reject(new Error(`npx exited with ${code}: ${stderr}`)));
        });
        const setting = (name: string) => new RegExp(`^export ${name}=(\\S+)$`, "m").exec(stdout)?.[1];
        const url = setting("OPSMANAGER_BASE_URL");
        const orgId = /^# Organization \(orgId\): (\S+)$/m.exec(stdout)?.[1];
        expect(stdout).toMatch(/^# Ops Manager simulator listening on http:\/\/127\.0\.0\.1:\d+ /);
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        const client = new HttpClient({
          baseUrl: apiRoot(url!),
          username: setting("OPSMANAGER_PUBLIC_KEY")!,
          password: setting("OPSMANAGER_PRIVATE_KEY")!,
        });
        try {
          const { body } = await client.request({ method: "GET", path: `/orgs/${orgId}/apiKeys` });
          expect((body as { totalCount: number }).totalCount).toBe(3);
        } finally {
          await client.close();
        }
      } finally {
        if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
      }
      await exited;
      // Stopped: the port it listened on refuses connections.
      const port = Number(/127\.0\.0\.1:(\d+) /.exec(stdout)?.[1]);
      const connect = () =>
        new Promise<string | undefined>((resolve) => {
          const socket = net.connect(port, "127.0.0.1");
          socket.once("connect", () => {
            socket.destroy();
            resolve(undefined);
          });
          socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code));
        });
      // npx may exit before the simulator it started has closed its server.
      let refused = await connect();
      for (let tries = 0; refused === undefined && tries < 50; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        refused = await connect();
      }
      expect(refused).toBe("ECONNREFUSED");
    });

    it.concurrent("type-checks in `pulumi new typescript`'s layout: CommonJS, strict, no esModuleInterop or skipLibCheck", async () => {
      fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(PULUMI_NEW_TSCONFIG, null, 2));
      fs.writeFileSync(path.join(dir, "index.ts"), PROGRAM);
      const result = await tsc("tsconfig.json");
      expect(result.output).toBe("");
      expect(result.code).toBe(0);
    });

    it.concurrent("type-checks as an ES module with module nodenext", async () => {
      const esm = path.join(dir, "esm");
      fs.mkdirSync(esm, { recursive: true });
      fs.writeFileSync(path.join(esm, "package.json"), JSON.stringify({ type: "module", private: true }));
      fs.writeFileSync(path.join(esm, "tsconfig.json"), JSON.stringify(ESM_TSCONFIG, null, 2));
      fs.writeFileSync(path.join(esm, "index.ts"), PROGRAM);
      const result = await tsc(path.join("esm", "tsconfig.json"));
      expect(result.output).toBe("");
      expect(result.code).toBe(0);
    });
  },
);
