/**
 * The entry of `pulumi-resource-opsmanager`, the provider plugin: it serves the provider's gRPC
 * interface on a loopback port and prints the port, as the engine expects of a plugin. Its first
 * argument is the engine's address, where its warnings go (./engine-log.ts); started by hand with no
 * argument (`PULUMI_DEBUG_PROVIDERS`), it learns the address from the engine's Handshake and Attach.
 */
import * as nodeModule from "node:module";
import { flushCodeCache } from "./code-cache-flush";
import { connectEngine, warnOnStderr } from "./engine-log";
import { serve } from "./server";

/** The engine's address among the plugin's arguments: after the engine's flags (`-v=9`, `--tracing <url>`). */
function engineAddressOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--tracing") i++;
    else if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

warnOnStderr();
const engineAddress = engineAddressOf(process.argv.slice(2));
if (engineAddress !== undefined) connectEngine(engineAddress);

serve().then(
  (port) => {
    // The engine reads the port from the first line of standard output.
    process.stdout.write(`${port}\n`);
    // What the compile cache that ./launch.ts turned on holds is written now: the engine ends a plugin
    // with SIGINT, which leaves Node no exit to write it at.
    (nodeModule as { flushCompileCache?: () => void }).flushCompileCache?.();
    // Or the bundle's own code cache, on a Node without that one (./launch.ts, ./code-cache.ts).
    flushCodeCache();
  },
  (error: unknown) => {
    process.stderr.write(`pulumi-resource-opsmanager: cannot serve: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
