/**
 * A warning in the output of the Pulumi command that runs the provider: through the SDK's log, loaded
 * here, in the host, where the SDK that runs the host is loaded already; on the console otherwise.
 */
export function warn(message: string): void {
  try {
    const log = require("@pulumi/pulumi/log") as typeof import("@pulumi/pulumi/log");
    void log.warn(message);
  } catch {
    console.warn(`warning: ${message}`);
  }
}
