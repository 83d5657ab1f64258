import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built package and the SDK through Node's own require, so that the program, the resources and
// the mocks share one @pulumi/pulumi instance, as in a real program.
const req = createRequire(__filename);
const pulumi = req("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
const om = req("../../dist/provider/index.js") as typeof import("../../provider");

const SECRET = "4a1ce-0f-the-0rchard-SECRET-9d2e";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}
const registered: Registered[] = [];

beforeAll(() => {
  process.env.OPSMANAGER_PRIVATE_KEY = SECRET;
  pulumi.runtime.setAllConfig(
    {
      "opsmanager:baseUrl": "http://127.0.0.1:9",
      "opsmanager:publicKey": "pub",
      "opsmanager:privateKey": SECRET,
    },
    ["opsmanager:privateKey"],
  );
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return {
          id: `${args.name}-id`,
          state: { ...args.inputs, jobId: `${args.name}-id`, apiKeyId: args.inputs.apiKeyId ?? "k" },
        };
      },
      call: () => ({}),
    },
    "proj",
    "stack",
    false,
  );
});
afterAll(() => {
  delete process.env.OPSMANAGER_PRIVATE_KEY;
});

function outputOf<T>(o: import("@pulumi/pulumi").Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply((v) => resolve(v)));
}

describe("getOrgApiKeys in a program", () => {
  it("lists every key of the org through all pages, with the program's stack config", async () => {
    const { startSimulator } = await import("../../simulator");
    const sim = await startSimulator({ seed: { keys: 1_100, privateKey: SECRET } });
    try {
      pulumi.runtime.setAllConfig(
        {
          "opsmanager:baseUrl": sim.url,
          "opsmanager:publicKey": sim.publicKey,
          "opsmanager:privateKey": SECRET,
        },
        ["opsmanager:privateKey"],
      );
      const keys = await om.getOrgApiKeys({ orgId: sim.orgId });
      expect(keys).toHaveLength(1_101);
      expect(keys.every((k) => (k.privateKey ?? "").startsWith("********"))).toBe(true);
      expect(JSON.stringify(keys)).not.toContain(SECRET);
      expect(
        sim.requests
          .filter((r) => r.status === 200)
          .map((r) => r.query.pageNum)
          .sort(),
      ).toEqual(["1", "2", "3"]);
    } finally {
      await sim.close();
    }
  });

  it("lists every key once when a key of page 1 is deleted while the other pages are read", async () => {
    const { startSimulator } = await import("../../simulator");
    const sim = await startSimulator({ seed: { keys: 1_100, privateKey: SECRET } });
    try {
      pulumi.runtime.setAllConfig(
        {
          "opsmanager:baseUrl": sim.url,
          "opsmanager:publicKey": sim.publicKey,
          "opsmanager:privateKey": SECRET,
        },
        ["opsmanager:privateKey"],
      );
      const victim = sim.state.apiKeys(sim.orgId)[10]!;
      sim.faults.add({ method: "GET", whenAnswered: () => sim.state.removeApiKey(victim.id) });
      const keys = await om.getOrgApiKeys({ orgId: sim.orgId });
      // Without the re-read, the key that slid from page 2 onto page 1 would be on no page.
      expect(keys.map((k) => k.id)).toEqual(sim.state.apiKeys(sim.orgId).map((k) => k.id));
      expect(keys).toHaveLength(1_100);
      expect(sim.requests.filter((r) => r.status === 200)).toHaveLength(6);
    } finally {
      await sim.close();
    }
  });
});

describe("programs under setMocks", () => {
  it("register both resources with their type tokens and inputs", async () => {
    const key = new om.OrgApiKey("ci", {
      orgId: "5f0000000000000000000001",
      publicKey: "abcdefgh",
      desc: "CI",
      roles: ["ORG_READ_ONLY", "ORG_MEMBER"],
    });
    const job = new om.LogCollectionJob("logs", {
      groupId: "5f0000000000000000000002",
      resourceType: "REPLICASET",
      resourceName: "rs0",
      sizeRequestedPerFileBytes: 1_000_000,
      logTypes: ["DATABASE"],
      redacted: true,
    });
    expect(await outputOf(key.desc)).toBe("CI");
    expect(await outputOf(job.jobId)).toBe("logs-id");
    const byName = Object.fromEntries(registered.map((r) => [r.name, r]));
    expect(byName.ci!.type).toBe("pulumi-nodejs:dynamic/opsmanager:OrgApiKey");
    expect(byName.logs!.type).toBe("pulumi-nodejs:dynamic/opsmanager:LogCollectionJob");
    expect(byName.ci!.inputs).toMatchObject({
      orgId: "5f0000000000000000000001",
      publicKey: "abcdefgh",
      desc: "CI",
      roles: ["ORG_READ_ONLY", "ORG_MEMBER"],
    });
    expect(byName.logs!.inputs).toMatchObject({
      resourceType: "REPLICASET",
      sizeRequestedPerFileBytes: 1_000_000,
      logTypes: ["DATABASE"],
      redacted: true,
    });
  });

  it("the serialized provider requires the package by name and holds no credential", async () => {
    const texts = registered.map((r) => r.inputs.__provider as string);
    expect(texts.length).toBeGreaterThanOrEqual(2);
    for (const text of texts) {
      expect(typeof text).toBe("string");
      expect(text).toContain('require("pulumi-opsmanager/host")');
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain("/work/");
      expect(text).not.toMatch(/zod|undici/);
      // Small: the provider's code lives in the package, not in state.
      expect(text.length).toBeLessThan(8_000);
    }
  });
});
