/**
 * What a deployment learns is kept by the module that learns it, and one reset forgets it all.
 */
import { describe, expect, it } from "vitest";
import type { Transport } from "../../provider/api/transport";
import {
  createdInDeployment,
  perDeployment,
  perServer,
  resetServerMemoryForTests,
} from "../../provider/resources/shared/server-memory";

const transport = () => ({ request: () => Promise.reject(new Error("not used")) }) as Transport;

describe("server memory", () => {
  it("keeps one memory per client, made on first use", () => {
    const memoryOf = perServer(() => new Set<string>());
    const [a, b] = [transport(), transport()];
    memoryOf(a).add("learned");
    expect(memoryOf(a)).toBe(memoryOf(a));
    expect(memoryOf(a).has("learned")).toBe(true);
    expect(memoryOf(b).size).toBe(0);
  });

  it("forgets what every module kept, per server and per deployment, on one reset", () => {
    const memoryOf = perServer(() => new Set<string>());
    const deployment = perDeployment(() => new Set<string>());
    const client = transport();
    memoryOf(client).add("learned");
    deployment().add("made");
    createdInDeployment().add("key 1");
    const before = deployment();
    resetServerMemoryForTests();
    expect(memoryOf(client).size).toBe(0);
    expect(deployment()).not.toBe(before);
    expect(deployment().size).toBe(0);
    expect(createdInDeployment().size).toBe(0);
  });
});
