import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

/** The modules a program loads with the package's entry, beyond those of the SDK it loads first. */
function loadedByEntry(): string[] {
  const script = `
require("@pulumi/pulumi");
const before = new Set(Object.keys(require.cache));
require(${JSON.stringify(path.join(ROOT, "dist/provider/index.js"))});
process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((id) => !before.has(id))));
`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8" }));
}

describe("what a program loads with the package", () => {
  it("the resource classes and errors, not the HTTP client, the API or zod, until getOrgApiKeys is called", () => {
    const loaded = loadedByEntry().map((id) => path.relative(ROOT, id));
    expect(loaded).toContain(path.join("dist", "provider", "resources", "org-api-key", "org-api-key.js"));
    expect(loaded).toContain(path.join("dist", "provider", "client", "errors", "index.js"));
    const heavy = loaded.filter(
      (id) =>
        /node_modules[\\/](zod|undici|ipaddr\.js)[\\/]/.test(id) ||
        id.includes(path.join("provider", "client", "http-client.js")) ||
        id.includes(path.join("provider", "api", "schemas.js")),
    );
    expect(heavy).toEqual([]);
  });
});
