/**
 * The provider plugin's gRPC service, served on the paths of the SDK's own `pulumirpc.ResourceProvider`
 * stubs with messages read and written by ./wire.ts: `@pulumi/pulumi/provider`'s server drops a diff's
 * `detailedDiff` and the configuration `Configure` sends, both of which this one passes on. Every
 * method translates the wire to the core's calls and back, and does nothing else: the resources' rules
 * are the core's (../resources/).
 */
import type * as grpc from "@grpc/grpc-js";
import type * as provgrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { configure } from "../resources/shared/runtime";
import { diffAnswer, grpcError } from "./answers";
import { inCallContexts } from "./call-context";
import { Cancellation, type Timed } from "./cancel";
import { checkedConfig, configDiff, configFailures, SECRET_SETTINGS } from "./config";
import { connectEngine } from "./engine-log";
import { schemaText } from "./package-files";
import { previewCreate, previewUpdate } from "./preview";
import { FUNCTIONS, importResource, PACKAGE, type PluginResource, RESOURCES } from "./resources";
import { sdkRequire } from "./sdk";
import { fromStruct, toStruct } from "./values";
import { VERSION } from "./version";
import {
  type AttachRequest,
  type CheckFailure,
  type CheckRequest,
  type CheckResponse,
  type ConfigureRequest,
  type CreateRequest,
  type CreateResponse,
  type DeleteRequest,
  type DiffRequest,
  type DiffResponse,
  decode,
  encode,
  type HandshakeRequest,
  type InvokeRequest,
  METHODS,
  type ReadRequest,
  type ReadResponse,
  type UpdateRequest,
  type WireStruct,
} from "./wire";

const grpcJs = sdkRequire<typeof grpc>("@grpc/grpc-js");

/** `google.protobuf.Empty`. */
const EMPTY = {};

type Call<Req> = grpc.ServerUnaryCall<Req, unknown>;
type Done<Res> = grpc.sendUnaryData<Res>;

/** Answers one call from `work`, its failure as {@link grpcError}. */
function answerCall<Res>(
  done: Done<Res>,
  work: () => Promise<Res> | Res,
  secretOutputs?: readonly string[],
): void {
  Promise.resolve()
    .then(work)
    .then(
      (res) => done(null, res),
      (error: unknown) => done(grpcError(error, secretOutputs)),
    );
}

/** The resource type a URN names (`urn:pulumi:stack::project::type::name`), or an error naming it. */
function resourceOf(urn: string, type?: string): PluginResource {
  const token = type || urn.split("::")[2]?.split("$").pop() || "";
  const resource = RESOURCES[token];
  if (resource === undefined) {
    throw new Error(
      `${PACKAGE} has no resource type ${JSON.stringify(token)}; its types are ${Object.keys(RESOURCES).join(", ")}`,
    );
  }
  return resource;
}

/** The names to answer as secrets: the resource's secret outputs, and what came in as a secret. */
function secretNames(resource: PluginResource, ...came: Set<string>[]): Set<string> {
  return new Set([...resource.secretOutputs, ...came.flatMap((s) => [...s])]);
}

/** A Check's answer: the inputs to use, and the failures found. */
function checked(inputs: WireStruct, failures: readonly CheckFailure[]): CheckResponse {
  return { inputs, failures: [...failures] };
}

/** The service's implementation; methods it leaves out answer UNIMPLEMENTED (grpc-js's default). */
export function providerService(): grpc.UntypedServiceImplementation {
  const cancellation = new Cancellation();
  // Every method's work under Cancel; a create's, read's, update's or delete's also under its timeout.
  const answer = <Res>(done: Done<Res>, work: () => Promise<Res> | Res, secretOutputs?: readonly string[]) =>
    answerCall(done, cancellation.run(work), secretOutputs);
  const timedAnswer = <Res>(done: Done<Res>, timed: Timed, work: () => Promise<Res> | Res) =>
    answerCall(done, cancellation.run(work, timed));
  const service = {
    getPluginInfo(_call: Call<object>, done: Done<object>) {
      answer(done, () => ({ version: VERSION }));
    },

    handshake(call: Call<HandshakeRequest>, done: Done<object>) {
      cancellation.renew();
      answer(done, () => {
        connectEngine(call.request.engineAddress);
        // What Configure answers; an engine that handshakes takes these instead, and takes the plugin to
        // support previews (Create and Update answer them: ./preview.ts).
        return {
          acceptSecrets: true,
          acceptResources: false,
          acceptOutputs: false,
          supportsAutonamingConfiguration: false,
        };
      });
    },

    attach(call: Call<AttachRequest>, done: Done<object>) {
      cancellation.renew();
      answer(done, () => {
        connectEngine(call.request.address);
        return EMPTY;
      });
    },

    getSchema(_call: Call<object>, done: Done<object>) {
      answer(done, () => ({ schema: schemaText() }));
    },

    checkConfig(call: Call<CheckRequest>, done: Done<CheckResponse>) {
      answer(done, () => {
        const news = fromStruct(call.request.news);
        return checked(
          toStruct(news.values, [...news.secrets, ...SECRET_SETTINGS]),
          configFailures(call.request.urn, news.values),
        );
      });
    },

    diffConfig(call: Call<DiffRequest>, done: Done<DiffResponse>) {
      answer(done, () => {
        const req = call.request;
        const olds = fromStruct(req.oldInputs ?? req.olds).values;
        const news = fromStruct(req.news).values;
        return diffAnswer(configDiff(olds, news), olds, news);
      });
    },

    configure(call: Call<ConfigureRequest>, done: Done<object>) {
      answer(done, async () => {
        const args = fromStruct(call.request.args).values;
        await configure({ config: checkedConfig(call.request.urn, args) });
        return { acceptSecrets: true, supportsPreview: true, acceptResources: false };
      });
    },

    check(call: Call<CheckRequest>, done: Done<CheckResponse>) {
      answer(done, async () => {
        const req = call.request;
        const resource = resourceOf(req.urn, req.type);
        const olds = fromStruct(req.olds);
        const news = fromStruct(req.news);
        const result = await resource.check(olds.values, news.values);
        return checked(toStruct(result.inputs ?? news.values, news.secrets), result.failures ?? []);
      });
    },

    diff(call: Call<DiffRequest>, done: Done<DiffResponse>) {
      answer(done, async () => {
        const req = call.request;
        const resource = resourceOf(req.urn, req.type);
        const state = fromStruct(req.olds).values;
        const oldInputs = req.oldInputs !== null ? fromStruct(req.oldInputs).values : state;
        const news = fromStruct(req.news).values;
        return diffAnswer(await resource.fieldDiff(req.id, state, news), oldInputs, news);
      });
    },

    create(call: Call<CreateRequest>, done: Done<CreateResponse>) {
      const req = call.request;
      // The names a partially created resource's state keeps secret, once known.
      const secrets: string[] = [];
      answerCall(
        done,
        cancellation.run(
          async (): Promise<CreateResponse> => {
            const resource = resourceOf(req.urn, req.type);
            const inputs = fromStruct(req.properties);
            secrets.push(...secretNames(resource, inputs.secrets));
            if (req.preview) return { properties: toStruct(previewCreate(inputs.values), secrets) };
            const made = await resource.create(inputs.values);
            return { id: made.id, properties: toStruct(made.outs, secrets) };
          },
          { operation: "create", timeoutSeconds: req.timeout },
        ),
        secrets,
      );
    },

    read(call: Call<ReadRequest>, done: Done<ReadResponse>) {
      timedAnswer(done, { operation: "read", timeoutSeconds: call.request.timeout }, async () => {
        const req = call.request;
        const resource = resourceOf(req.urn, req.type);
        const state = fromStruct(req.properties);
        const inputs = fromStruct(req.inputs);
        // `pulumi import` sends the id it was given and no state.
        const found =
          Object.keys(state.values).length === 0 && Object.keys(inputs.values).length === 0
            ? await importResource(resource, req.id)
            : await resource.read(req.id, state.values);
        if (!found.id || found.props === undefined) return { id: found.id ?? "" };
        return {
          id: found.id,
          properties: toStruct(found.props, secretNames(resource, state.secrets, inputs.secrets)),
          ...(found.inputs !== undefined ? { inputs: toStruct(found.inputs, inputs.secrets) } : {}),
        };
      });
    },

    update(call: Call<UpdateRequest>, done: Done<object>) {
      timedAnswer(done, { operation: "update", timeoutSeconds: call.request.timeout }, async () => {
        const req = call.request;
        const resource = resourceOf(req.urn, req.type);
        const olds = fromStruct(req.olds);
        const news = fromStruct(req.news);
        const updated = req.preview
          ? {
              outs: previewUpdate(
                olds.values,
                news.values,
                await resource.fieldDiff(req.id, olds.values, news.values),
                resource.derivedOutputs,
              ),
            }
          : await resource.update(req.id, olds.values, news.values);
        return { properties: toStruct(updated.outs, secretNames(resource, olds.secrets, news.secrets)) };
      });
    },

    delete(call: Call<DeleteRequest>, done: Done<object>) {
      timedAnswer(done, { operation: "delete", timeoutSeconds: call.request.timeout }, async () => {
        const req = call.request;
        const resource = resourceOf(req.urn, req.type);
        await resource.delete(req.id, fromStruct(req.properties).values);
        return EMPTY;
      });
    },

    invoke(call: Call<InvokeRequest>, done: Done<object>) {
      answer(done, async () => {
        const fn = FUNCTIONS[call.request.tok];
        if (fn === undefined) {
          throw new Error(
            `${PACKAGE} has no function ${JSON.stringify(call.request.tok)}; its functions are ${Object.keys(FUNCTIONS).join(", ")}`,
          );
        }
        const result = await fn(fromStruct(call.request.args).values);
        return { return: toStruct(result) };
      });
    },

    cancel(_call: Call<object>, done: Done<object>) {
      cancellation.cancel();
      done(null, EMPTY);
    },
  };
  return inCallContexts(service as never);
}

/**
 * `pulumirpc.ResourceProvider` as the SDK's stubs define it (its methods' paths), each method the
 * plugin serves reading and writing its messages with ./wire.ts.
 */
export function providerServiceDefinition(): grpc.ServiceDefinition {
  const sdk = sdkRequire<typeof provgrpc>("./proto/provider_grpc_pb")
    .ResourceProviderService as unknown as grpc.ServiceDefinition;
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = { ...sdk };
  for (const [method, [request, response]] of Object.entries(METHODS)) {
    const stub = sdk[method];
    if (stub === undefined) throw new Error(`the SDK's pulumirpc.ResourceProvider has no method ${method}`);
    definition[method] = {
      ...stub,
      requestDeserialize: (bytes: Buffer) => decode(request, bytes),
      requestSerialize: (message: unknown) => encode(request, message as object),
      responseDeserialize: (bytes: Buffer) => decode(response, bytes),
      responseSerialize: (message: unknown) => encode(response, message as object),
    };
  }
  return definition as grpc.ServiceDefinition;
}

/** Serves the plugin on a free loopback port and resolves with it. */
export async function serve(): Promise<number> {
  const server = new grpcJs.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(providerServiceDefinition(), providerService());
  return new Promise((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpcJs.ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve(port),
    );
  });
}
