/**
 * Whether the npm registry can be reached from here, for the suites that install from it
 * (`test/install`, `test/host/sdk-floor.test.ts`). They skip, and say why, when it cannot, as the
 * interoperability suite does without its servers; any other failure of npm is theirs to meet.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * What npm reports when no connection to the registry could be made or kept: a system code, or
 * `network timeout at: <url>` when the registry took the connection and did not answer in time.
 */
const UNREACHABLE =
  /\b(?:ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ESOCKETTIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENETDOWN|UND_ERR_CONNECT_TIMEOUT)\b|network timeout/;

/** Options of {@link registryUnreachable}. */
export interface RegistryCheckOptions {
  /** How long npm may take to get an answer. Default 15 s. */
  timeoutMs?: number;
  /** npm's environment (`npm_config_registry`, say). Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Why the registry npm is configured with cannot be reached, or `undefined` when it answered, or when
 * npm failed for another reason (the suite then meets that failure and reports it). Asks
 * `npm view <spec> version` once, without retries and with an empty cache, so that no cached answer
 * stands in for the registry's.
 */
export function registryUnreachable(spec: string, options: RegistryCheckOptions = {}): string | undefined {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-npm-view-"));
  try {
    execFileSync(
      "npm",
      ["view", spec, "version", "--cache", cache, "--fetch-retries=0", `--fetch-timeout=${timeoutMs}`],
      {
        env: options.env ?? process.env,
        timeout: timeoutMs + 5_000,
        stdio: ["ignore", "pipe", "pipe"],
        encoding: "utf8",
      },
    );
    return undefined;
  } catch (error) {
    const e = error as { code?: string; signal?: string; stderr?: string };
    const output = e.stderr ?? "";
    const url = /(?:request to|network timeout at:) (\S+)/.exec(output)?.[1];
    const where = url === undefined ? "the npm registry" : `the npm registry (${new URL(url).origin})`;
    if (e.code === "ETIMEDOUT" || (e.signal !== undefined && e.signal !== null)) {
      return `\`npm view ${spec}\` got no answer from ${where} within ${Math.round((timeoutMs + 5_000) / 1000)} s`;
    }
    const code = UNREACHABLE.exec(output)?.[0];
    return code === undefined ? undefined : `\`npm view ${spec}\` could not reach ${where} [${code}]`;
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
}
