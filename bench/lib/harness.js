/**
 * The test harness of test/support (program directories, the real dynamic-provider host over gRPC,
 * the provider serializer), compiled on the fly so the benchmarks drive the host exactly as the tests do.
 */
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const ROOT = path.join(__dirname, "..", "..");
// Inside the repository (and gitignored), so the compiled files resolve the repository root and its
// node_modules as the sources in test/support do.
const OUT = path.join(ROOT, ".bench-results", "harness");
const FILES = ["host", "program-dir", "serialize"];

function compile() {
  fs.mkdirSync(OUT, { recursive: true });
  for (const name of FILES) {
    const source = fs.readFileSync(path.join(ROOT, "test", "support", `${name}.ts`), "utf8");
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2021,
        esModuleInterop: true,
      },
      fileName: `${name}.ts`,
    });
    // The support code reads the provider's own definitions from source; here, from the build.
    const built = outputText.replace(/require\("\.\.\/\.\.\/provider\//g, `require("${ROOT}/dist/provider/`);
    fs.writeFileSync(path.join(OUT, `${name}.js`), built);
  }
}

compile();

module.exports = {
  ...require(path.join(OUT, "host.js")),
  ...require(path.join(OUT, "program-dir.js")),
  ...require(path.join(OUT, "serialize.js")),
  ROOT,
};
