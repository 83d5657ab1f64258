/**
 * How a serialized provider loads this package in Pulumi's real dynamic-provider host, and what it
 * says when it cannot. Only the package itself not being found gets the advice to add it to the
 * program's dependencies; a package that is found but fails to load is reported with the real cause.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { type Host, type HostCallError, KEY_TYPE, NO_ENV, startHost, urn } from "../support/host";
import { makeProgramDir, type ProgramDir } from "../support/program-dir";

const KEY_URN = urn(KEY_TYPE, "key");
const ADD_IT = "Add it to the dependencies of the program's own package.json";

let sim: Simulator;
let keyText: string;
const hosts: Host[] = [];
const programs: ProgramDir[] = [];

beforeAll(async () => {
  sim = await startSimulator({ seed: { keys: 1 } });
  keyText = require("../../dist/provider/resources/shared/providers.js").ORG_API_KEY_PROVIDER;
});

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  await Promise.all(programs.map((p) => p.cleanup()));
  await sim?.close();
});

async function program(options: { packRepo?: boolean } = {}): Promise<ProgramDir> {
  const dir = await makeProgramDir(options);
  programs.push(dir);
  return dir;
}

/** The error of the first call that loads the provider (a check), in a host started in `dir`. */
async function firstCallError(dir: string, fromEsModule = false): Promise<HostCallError | undefined> {
  const host = await startHost({ cwd: dir, env: { ...NO_ENV }, fromEsModule });
  hosts.push(host);
  await host.configure({
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": sim.privateKey,
  });
  sim.resetRequests();
  return host
    .check(KEY_URN, {}, { orgId: sim.orgId, publicKey: "abcdefgh", __provider: keyText })
    .then(() => undefined)
    .catch((e: HostCallError) => e);
}

describe("loading the package in the provider host", () => {
  it("a package that is found but fails to load (a dependency of it missing) is reported with that cause, not as a package to add", async () => {
    const dir = await program();
    // A broken install: the package is there, zod (which its host entry loads) is not.
    fs.unlinkSync(path.join(dir.dir, "node_modules", "zod"));
    const error = await firstCallError(dir.dir);
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toContain("Cannot find module 'zod'");
    expect(error!.message).toContain(path.join("node_modules", "pulumi-opsmanager", "dist"));
    expect(error!.message).not.toContain(ADD_IT);
    expect(error!.message).not.toContain("could not be loaded where Pulumi runs");
    expect(sim.requests).toEqual([]);
  });

  it("a package that is not there, in a host with no main module (started from an ES module), gets the advice to add it, not a TypeError", async () => {
    const dir = await program({ packRepo: false });
    const error = await firstCallError(dir.dir, true);
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toContain(
      `pulumi-opsmanager could not be loaded where Pulumi runs this stack's providers, the program's directory ${fs.realpathSync(dir.dir)}`,
    );
    expect(error!.message).toContain("Cannot find module 'pulumi-opsmanager/host'");
    expect(error!.message).toContain(ADD_IT);
    expect(error!.message).not.toMatch(/Cannot read properties of undefined|TypeError/);
    expect(sim.requests).toEqual([]);
  });

  it("the package in the program's directory, in a host started from an ES module, loads and answers", async () => {
    const dir = await program();
    const error = await firstCallError(dir.dir, true);
    expect(error).toBeUndefined();
  });
});
