/**
 * The entry of `pulumi-resource-opsmanager`, the provider plugin: it serves the provider's gRPC
 * interface on a loopback port and prints the port, as the engine expects of a plugin. The engine's
 * arguments (its address, logging flags) are not needed.
 */
import { serve } from "./server";

serve().then(
  (port) => {
    // The engine reads the port from the first line of standard output.
    process.stdout.write(`${port}\n`);
  },
  (error: unknown) => {
    process.stderr.write(`pulumi-resource-opsmanager: cannot serve: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
