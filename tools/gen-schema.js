#!/usr/bin/env node
// `npm run gen:schema`: writes package.json's version into provider/plugin/version.ts (the module the
// plugin answers GetPluginInfo from), builds, then writes provider/plugin/schema.json, the provider
// plugin's package schema, from the built package: each resource's descriptor, at that version.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

const versionFile = path.join(root, "provider", "plugin", "version.ts");
const versionText = fs.readFileSync(versionFile, "utf8");
const withVersion = versionText.replace(
  /^export const VERSION = ".*";$/m,
  `export const VERSION = ${JSON.stringify(version)};`,
);
if (!/^export const VERSION = ".*";$/m.test(versionText)) {
  throw new Error(`${path.relative(root, versionFile)} has no line \`export const VERSION = "<version>";\``);
}
if (withVersion !== versionText) fs.writeFileSync(versionFile, withVersion);

// The build after the version is written, so that the built plugin answers with it too.
execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
const { schemaText } = require(path.join(root, "dist", "provider", "schema.js"));
const out = path.join(root, "provider", "plugin", "schema.json");
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, schemaText(version));
console.log(`wrote ${path.relative(root, out)} and ${path.relative(root, versionFile)} (version ${version})`);
