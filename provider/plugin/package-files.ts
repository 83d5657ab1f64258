/**
 * What the plugin answers from its package's files: its schema (GetSchema), read from the package's
 * root (its version is ./version.ts, written from package.json). The plugin's single executable
 * (tools/release/bundle.js) replaces this module in its bundle by one that holds the schema read at
 * build time: the binary reads no file of its own.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";

/** The package's root: the built module is in `dist/provider/plugin/`, the schema in `provider/plugin/`. */
const PACKAGE_ROOT = path.resolve(__dirname, "..", "..", "..");

/** Where GetSchema reads the schema from, in the package's root. */
export const SCHEMA_PATH = path.join(PACKAGE_ROOT, "provider", "plugin", "schema.json");

/** The schema's text, as GetSchema answers it; an error that says the package is incomplete when it cannot be read. */
export function schemaText(): string {
  try {
    return readFileSync(SCHEMA_PATH, "utf8");
  } catch (error) {
    throw new Error(
      `the opsmanager plugin's schema ${SCHEMA_PATH} cannot be read (${(error as NodeJS.ErrnoException).code}): the package is incomplete; reinstall it`,
    );
  }
}
