/**
 * Modules the plugin takes from the program's own `@pulumi/pulumi` (a peer dependency): its gRPC
 * stubs, and the `@grpc/grpc-js` and `google-protobuf` that those stubs were generated for, resolved
 * from the SDK's folder so that the messages the plugin builds are the classes the stubs check.
 */
import { createRequire } from "node:module";
import * as path from "node:path";

const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromSdk = createRequire(path.join(sdkDir, "package.json"));

/** `id` as the SDK resolves it (`@grpc/grpc-js`, `google-protobuf/…`, `./proto/provider_pb`). */
export function sdkRequire<T>(id: string): T {
  return fromSdk(id) as T;
}
