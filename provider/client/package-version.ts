/**
 * This package's version, for the client's User-Agent: read once from the package.json of the package
 * this module was loaded from. The plugin's single executable (tools/release/bundle.js) replaces this
 * module in its bundle by one that holds the version read at build time.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { isRecord } from "./is-record";

let cached: string | undefined;

/** The version of the package `pulumi-opsmanager` that holds this module, `unknown` if none is found. */
export function packageVersion(): string {
  if (cached === undefined) {
    let version = "unknown";
    let dir = __dirname;
    for (let i = 0; i < 5; i += 1) {
      const file = path.join(dir, "package.json");
      try {
        if (existsSync(file)) {
          const pkg: unknown = JSON.parse(readFileSync(file, "utf8"));
          if (isRecord(pkg) && pkg.name === "pulumi-opsmanager" && typeof pkg.version === "string") {
            version = pkg.version;
            break;
          }
        }
      } catch {
        // An unreadable package.json only costs the version in the User-Agent.
      }
      dir = path.dirname(dir);
    }
    cached = version;
  }
  return cached;
}
