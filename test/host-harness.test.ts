import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Host, type Props, startHost, UNKNOWN, urn } from "./support/host";
import { itNeeding } from "./support/prerequisite";
import { makeProgramDir, type ProgramDir, repoRoot } from "./support/program-dir";
import { serializeProvider } from "./support/serialize";

const TRIVIAL_DIR = path.join(__dirname, "fixtures", "trivial-provider");

/** Every method defers to the `trivial-provider` package, required by name on the host at call time. */
const trivialProvider = {
  create: (inputs: Props) => require("trivial-provider").create(inputs),
  check: (olds: Props, news: Props) => require("trivial-provider").check(olds, news),
  diff: (id: string, olds: Props, news: Props) => require("trivial-provider").diff(id, olds, news),
  read: (id: string, props: Props) => require("trivial-provider").read(id, props),
  update: (id: string, olds: Props, news: Props) => require("trivial-provider").update(id, olds, news),
  delete: (id: string, props: Props) => require("trivial-provider").delete(id, props),
};

/** Throws from `create` an error carrying `id`, `properties` and `reasons`: a partially created resource. */
const partialCreateProvider = {
  async create(_inputs: Props) {
    const err = new Error("resource created but did not become ready");
    Object.assign(err, { id: "half-1", properties: { state: "PENDING" }, reasons: ["still starting"] });
    throw err;
  },
};

/** Rejects every input in `check` with a plain error. */
const throwingCheckProvider = {
  async check(_olds: Props, _news: Props) {
    throw new Error("orgId must be a 24-character hex string");
  },
  async create(inputs: Props) {
    return { id: "never", outs: inputs };
  },
};

/** Records what its `configure` saw and reports it as the output of `create`. */
const configEchoProvider = {
  async configure(req: { config: { get(key: string): string | undefined } }) {
    (globalThis as Record<string, unknown>).__harnessConfig = {
      namespaced: req.config.get("opsmanager:baseUrl") ?? null,
      projectKey: req.config.get("plain") ?? null,
    };
  },
  async create(_inputs: Props) {
    return { id: "cfg", outs: { seen: (globalThis as Record<string, unknown>).__harnessConfig } };
  },
};

describe("the dynamic-provider host harness", () => {
  let program: ProgramDir;
  let host: Host;
  let trivialText: string;
  const config = { "opsmanager:baseUrl": "http://ops.example", "proj:plain": "p" };
  const resUrn = urn("pulumi-nodejs:dynamic:Resource", "trivial");

  beforeAll(async () => {
    program = await makeProgramDir({ packages: [TRIVIAL_DIR], packRepo: false });
    trivialText = await serializeProvider(trivialProvider);
    const spawned = performance.now();
    host = await startHost({ cwd: program.dir });
    await host.configure(config);
    const configured = performance.now();
    await host.check(resUrn, {}, { name: "warmup", __provider: trivialText });
    const firstCheck = performance.now();
    console.log(
      `host cold start: port after ${host.startupMs.toFixed(0)} ms, Configure answered after ` +
        `${(configured - spawned).toFixed(0)} ms, first Check after ${(firstCheck - spawned).toFixed(0)} ms`,
    );
  });

  afterAll(async () => {
    await host?.close();
    await program?.cleanup();
  });

  it("serializes the provider so that it requires its package by name instead of embedding it", () => {
    expect(trivialText).toContain('require("trivial-provider")');
    expect(trivialText).not.toContain(TRIVIAL_DIR);
  });

  it("answers Configure and declares that it does not accept secrets", async () => {
    // Each Configure replaces the config the host hands to providers it deserializes afterwards.
    await expect(host.configure(config)).resolves.toEqual({ acceptSecrets: false });
  });

  it("returns the inputs from check with __provider kept, and lets unknown values through", async () => {
    const news = { name: "a", pending: UNKNOWN, __provider: trivialText };
    const res = await host.check(resUrn, {}, news);
    expect(res).toEqual({ inputs: news, failures: [] });
  });

  it("reports no changes from diff when the provider says changes is false", async () => {
    const olds = { name: "a", __provider: trivialText };
    const res = await host.diff("1", resUrn, olds, { name: "b", __provider: trivialText });
    expect(res).toEqual({ changes: "DIFF_NONE", replaces: [], deleteBeforeReplace: false });
  });

  it("creates a resource and returns its id and outputs including __provider", async () => {
    const res = await host.create(resUrn, { name: "a", tags: ["x"], n: 3, __provider: trivialText });
    expect(res).toEqual({ id: "1", properties: { name: "a", tags: ["x"], n: 3, __provider: trivialText } });
  });

  it("reads a resource back with the properties the provider returned and no inputs", async () => {
    const res = await host.read("1", resUrn, { name: "a", __provider: trivialText });
    expect(res).toEqual({ id: "1", properties: { name: "a", __provider: trivialText } });
    expect(res.inputs).toBeUndefined();
  });

  it("updates a resource and returns the new outputs", async () => {
    const res = await host.update(
      "1",
      resUrn,
      { name: "a", __provider: trivialText },
      { name: "b", __provider: trivialText },
    );
    expect(res).toEqual({ properties: { name: "b", __provider: trivialText } });
  });

  it("deletes a resource", async () => {
    await expect(host.delete("1", resUrn, { name: "b", __provider: trivialText })).resolves.toBeUndefined();
  });

  it("reports a create error that carries id, properties and reasons as a partially created resource", async () => {
    const text = await serializeProvider(partialCreateProvider);
    const err = await host.create(resUrn, { name: "p", __provider: text }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({
      message: "resource created but did not become ready",
      grpcCode: 2,
      partial: { id: "half-1", properties: { state: "PENDING" }, reasons: ["still starting"] },
    });
  });

  it("passes the message of an error thrown by check to the caller", async () => {
    const text = await serializeProvider(throwingCheckProvider);
    const err = await host.check(resUrn, {}, { orgId: "x", __provider: text }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe("orgId must be a 24-character hex string");
    expect(err).toMatchObject({ grpcCode: 2 });
    expect((err as { partial?: unknown }).partial).toBeUndefined();
  });

  it("hands the Configure args to the provider's configure, with keys resolved against the project", async () => {
    const text = await serializeProvider(configEchoProvider);
    const res = await host.create(resUrn, { __provider: text });
    expect(res.properties.seen).toEqual({ namespaced: "http://ops.example", projectKey: "p" });
  });

  it("reports the host's process id and memory use", () => {
    expect(host.pid).toBeGreaterThan(0);
    expect(host.rssBytes()).toBeGreaterThan(1024 * 1024);
    expect(host.peakRssBytes()).toBeGreaterThanOrEqual(host.rssBytes());
  });
});

describe("the program directory", () => {
  const built = fs.existsSync(path.join(repoRoot(), "dist", "provider", "index.js"));

  itNeeding(
    "places the packed package so it resolves by name from the program",
    built ? undefined : "dist/ (npm run build)",
    async () => {
      const program = await makeProgramDir();
      try {
        // Resolve as a module of the program would. A plain `require.resolve(id, { paths })` called from
        // inside this repository self-resolves "pulumi-opsmanager" to the repository's own package.
        const programRequire = createRequire(path.join(program.dir, "index.js"));
        const manifest = programRequire.resolve("pulumi-opsmanager/package.json");
        expect(manifest).toBe(path.join(program.dir, "node_modules", "pulumi-opsmanager", "package.json"));
        expect(programRequire.resolve("pulumi-opsmanager")).toMatch(
          /pulumi-opsmanager\/dist\/provider\/index\.js$/,
        );
        expect(fs.existsSync(path.join(program.dir, "node_modules", "pulumi-opsmanager", "test"))).toBe(
          false,
        );
        for (const dep of ["undici", "zod", "@pulumi/pulumi"]) {
          expect(() => programRequire.resolve(`${dep}/package.json`)).not.toThrow();
        }
      } finally {
        await program.cleanup();
      }
    },
  );

  it("copies local packages in under their package.json name", async () => {
    const program = await makeProgramDir({ packages: [TRIVIAL_DIR], packRepo: false });
    try {
      const resolved = createRequire(path.join(program.dir, "index.js")).resolve("trivial-provider");
      expect(resolved).toBe(path.join(program.dir, "node_modules", "trivial-provider", "index.js"));
    } finally {
      await program.cleanup();
    }
  });
});
