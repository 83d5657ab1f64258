/**
 * Modules the plugin takes from the program's own `@pulumi/pulumi` (a peer dependency), resolved from
 * the SDK's folder: its gRPC service definitions (the methods' paths; ./wire.ts reads and writes the
 * provider's messages), `@grpc/grpc-js`, and the google-protobuf classes of the few messages the
 * plugin still builds with them (an error's `Status` and `Any`, the engine's `LogRequest`), which must
 * be the classes those stubs were generated for.
 */
import { createRequire } from "node:module";
import * as path from "node:path";

const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromSdk = createRequire(path.join(sdkDir, "package.json"));

/** `id` as the SDK resolves it (`@grpc/grpc-js`, `google-protobuf/…`, `./proto/provider_grpc_pb`). */
export function sdkRequire<T>(id: string): T {
  return fromSdk(id) as T;
}
