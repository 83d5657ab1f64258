/**
 * The one way the core warns. Where a warning goes is the face's: a face installs a sink
 * ({@link setWarningSink}), and each warning reaches it with the URN of the call in progress
 * (./call-context.ts). Without a sink (the dynamic face), a warning goes through the SDK's log, loaded
 * here, in the host, where the SDK that runs the host is loaded already; on the console otherwise.
 */
import { currentCall } from "./call-context";

/**
 * Where warnings go: `urn` names the resource of the call in progress, empty outside a call. A
 * promise returned is a delivery that the call's answer waits for.
 */
export type WarningSink = (message: string, urn: string) => Promise<void> | void;

/** Today's path in Pulumi's dynamic-provider host: its stderr, which the engine shows with no URN. */
const sdkLog: WarningSink = (message) => {
  try {
    const log = require("@pulumi/pulumi/log") as typeof import("@pulumi/pulumi/log");
    void log.warn(message);
  } catch {
    console.warn(`warning: ${message}`);
  }
};

let sink: WarningSink = sdkLog;

/** Sends later warnings to `next`; `undefined` restores the SDK's log. */
export function setWarningSink(next: WarningSink | undefined): void {
  sink = next ?? sdkLog;
}

/** A warning in the output of the Pulumi command that runs the provider, under the call's resource. */
export function warn(message: string): void {
  const call = currentCall();
  const delivery = sink(message, call?.urn ?? "");
  if (delivery !== undefined) call?.deliveries.push(delivery);
}
