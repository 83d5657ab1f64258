#!/usr/bin/env node
// Writes provider/plugin/schema.json, the provider plugin's package schema, from the built package
// (`npm run gen:schema` builds first): each resource's descriptor, at package.json's version.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const { schemaText } = require(path.join(root, "dist", "provider", "schema.js"));
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const out = path.join(root, "provider", "plugin", "schema.json");
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, schemaText(version));
console.log(`wrote ${path.relative(root, out)} (version ${version})`);
