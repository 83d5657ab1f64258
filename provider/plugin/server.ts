/**
 * The provider plugin's gRPC service, served from the SDK's own `pulumirpc.ResourceProvider` stubs:
 * `@pulumi/pulumi/provider`'s server drops a diff's `detailedDiff` and the configuration `Configure`
 * sends, both of which this one passes on. Every method translates the wire to the core's calls and
 * back, and does nothing else: the resources' rules are the core's (../resources/).
 */
import type * as grpc from "@grpc/grpc-js";
import type * as plugpb from "@pulumi/pulumi/proto/plugin_pb";
import type * as provgrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provpb from "@pulumi/pulumi/proto/provider_pb";
import type * as emptypb from "google-protobuf/google/protobuf/empty_pb";
import { configure } from "../resources/shared/runtime";
import { detailedDiff, grpcError } from "./answers";
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

const grpcJs = sdkRequire<typeof grpc>("@grpc/grpc-js");
const pb = sdkRequire<typeof provpb>("./proto/provider_pb");
const plug = sdkRequire<typeof plugpb>("./proto/plugin_pb");
const { Empty } = sdkRequire<typeof emptypb>("google-protobuf/google/protobuf/empty_pb");

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

/** The service's implementation; methods it leaves out answer UNIMPLEMENTED (grpc-js's default). */
export function providerService(): grpc.UntypedServiceImplementation {
  const cancellation = new Cancellation();
  // Every method's work under Cancel; a create's, read's, update's or delete's also under its timeout.
  const answer = <Res>(done: Done<Res>, work: () => Promise<Res> | Res, secretOutputs?: readonly string[]) =>
    answerCall(done, cancellation.run(work), secretOutputs);
  const timedAnswer = <Res>(done: Done<Res>, timed: Timed, work: () => Promise<Res> | Res) =>
    answerCall(done, cancellation.run(work, timed));
  const service = {
    getPluginInfo(_call: Call<emptypb.Empty>, done: Done<plugpb.PluginInfo>) {
      answer(done, () => new plug.PluginInfo().setVersion(VERSION));
    },

    handshake(call: Call<provpb.ProviderHandshakeRequest>, done: Done<provpb.ProviderHandshakeResponse>) {
      cancellation.renew();
      answer(done, () => {
        connectEngine(call.request.getEngineAddress());
        // What Configure answers; an engine that handshakes takes these instead, and takes the plugin to
        // support previews (Create and Update answer them: ./preview.ts).
        return new pb.ProviderHandshakeResponse()
          .setAcceptSecrets(true)
          .setAcceptResources(false)
          .setAcceptOutputs(false)
          .setSupportsAutonamingConfiguration(false);
      });
    },

    attach(call: Call<plugpb.PluginAttach>, done: Done<emptypb.Empty>) {
      cancellation.renew();
      answer(done, () => {
        connectEngine(call.request.getAddress());
        return new Empty();
      });
    },

    getSchema(_call: Call<provpb.GetSchemaRequest>, done: Done<provpb.GetSchemaResponse>) {
      answer(done, () => new pb.GetSchemaResponse().setSchema(schemaText()));
    },

    checkConfig(call: Call<provpb.CheckRequest>, done: Done<provpb.CheckResponse>) {
      answer(done, () => {
        const news = fromStruct(call.request.getNews());
        return new pb.CheckResponse()
          .setInputs(toStruct(news.values, [...news.secrets, ...SECRET_SETTINGS]))
          .setFailuresList(
            configFailures(call.request.getUrn(), news.values).map((f) =>
              new pb.CheckFailure().setProperty(f.property).setReason(f.reason),
            ),
          );
      });
    },

    diffConfig(call: Call<provpb.DiffRequest>, done: Done<provpb.DiffResponse>) {
      answer(done, () => {
        const req = call.request;
        const olds = fromStruct(req.hasOldInputs() ? req.getOldInputs() : req.getOlds()).values;
        const news = fromStruct(req.getNews()).values;
        const diff = configDiff(olds, news);
        const res = new pb.DiffResponse()
          .setChanges(
            diff.replaces.length + diff.updates.length > 0
              ? pb.DiffResponse.DiffChanges.DIFF_SOME
              : pb.DiffResponse.DiffChanges.DIFF_NONE,
          )
          .setReplacesList(diff.replaces)
          .setDeletebeforereplace(diff.deleteBeforeReplace);
        detailedDiff(res, diff, olds, news);
        return res;
      });
    },

    configure(call: Call<provpb.ConfigureRequest>, done: Done<provpb.ConfigureResponse>) {
      answer(done, async () => {
        const args = fromStruct(call.request.getArgs()).values;
        await configure({ config: checkedConfig(call.request.getUrn(), args) });
        return new pb.ConfigureResponse()
          .setAcceptsecrets(true)
          .setSupportspreview(true)
          .setAcceptresources(false);
      });
    },

    check(call: Call<provpb.CheckRequest>, done: Done<provpb.CheckResponse>) {
      answer(done, async () => {
        const req = call.request;
        const resource = resourceOf(req.getUrn(), req.getType());
        const olds = fromStruct(req.getOlds());
        const news = fromStruct(req.getNews());
        const checked = await resource.check(olds.values, news.values);
        const res = new pb.CheckResponse().setInputs(toStruct(checked.inputs ?? news.values, news.secrets));
        res.setFailuresList(
          (checked.failures ?? []).map((f) =>
            new pb.CheckFailure().setProperty(f.property).setReason(f.reason),
          ),
        );
        return res;
      });
    },

    diff(call: Call<provpb.DiffRequest>, done: Done<provpb.DiffResponse>) {
      answer(done, async () => {
        const req = call.request;
        const resource = resourceOf(req.getUrn(), req.getType());
        const state = fromStruct(req.getOlds()).values;
        const oldInputs = req.hasOldInputs() ? fromStruct(req.getOldInputs()).values : state;
        const news = fromStruct(req.getNews()).values;
        const diff = await resource.fieldDiff(req.getId(), state, news);
        const changed = diff.replaces.length + diff.updates.length > 0;
        const res = new pb.DiffResponse()
          .setChanges(changed ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE)
          .setReplacesList(diff.replaces)
          .setDeletebeforereplace(diff.deleteBeforeReplace);
        detailedDiff(res, diff, oldInputs, news);
        return res;
      });
    },

    create(call: Call<provpb.CreateRequest>, done: Done<provpb.CreateResponse>) {
      const req = call.request;
      // The names a partially created resource's state keeps secret, once known.
      const secrets: string[] = [];
      answerCall(
        done,
        cancellation.run(
          async () => {
            const resource = resourceOf(req.getUrn(), req.getType());
            const inputs = fromStruct(req.getProperties());
            secrets.push(...secretNames(resource, inputs.secrets));
            if (req.getPreview()) {
              return new pb.CreateResponse().setProperties(toStruct(previewCreate(inputs.values), secrets));
            }
            const made = await resource.create(inputs.values);
            return new pb.CreateResponse().setId(made.id).setProperties(toStruct(made.outs, secrets));
          },
          { operation: "create", timeoutSeconds: req.getTimeout() },
        ),
        secrets,
      );
    },

    read(call: Call<provpb.ReadRequest>, done: Done<provpb.ReadResponse>) {
      timedAnswer(done, { operation: "read", timeoutSeconds: call.request.getTimeout() }, async () => {
        const req = call.request;
        const resource = resourceOf(req.getUrn(), req.getType());
        const state = fromStruct(req.getProperties());
        const inputs = fromStruct(req.getInputs());
        // `pulumi import` sends the id it was given and no state.
        const found =
          Object.keys(state.values).length === 0 && Object.keys(inputs.values).length === 0
            ? await importResource(resource, req.getId())
            : await resource.read(req.getId(), state.values);
        const res = new pb.ReadResponse().setId(found.id ?? "");
        if (!found.id || found.props === undefined) return res;
        res.setProperties(toStruct(found.props, secretNames(resource, state.secrets, inputs.secrets)));
        if (found.inputs !== undefined) res.setInputs(toStruct(found.inputs, inputs.secrets));
        return res;
      });
    },

    update(call: Call<provpb.UpdateRequest>, done: Done<provpb.UpdateResponse>) {
      timedAnswer(done, { operation: "update", timeoutSeconds: call.request.getTimeout() }, async () => {
        const req = call.request;
        const resource = resourceOf(req.getUrn(), req.getType());
        const olds = fromStruct(req.getOlds());
        const news = fromStruct(req.getNews());
        const updated = req.getPreview()
          ? {
              outs: previewUpdate(
                olds.values,
                news.values,
                await resource.fieldDiff(req.getId(), olds.values, news.values),
                resource.derivedOutputs,
              ),
            }
          : await resource.update(req.getId(), olds.values, news.values);
        return new pb.UpdateResponse().setProperties(
          toStruct(updated.outs, secretNames(resource, olds.secrets, news.secrets)),
        );
      });
    },

    delete(call: Call<provpb.DeleteRequest>, done: Done<emptypb.Empty>) {
      timedAnswer(done, { operation: "delete", timeoutSeconds: call.request.getTimeout() }, async () => {
        const req = call.request;
        const resource = resourceOf(req.getUrn(), req.getType());
        await resource.delete(req.getId(), fromStruct(req.getProperties()).values);
        return new Empty();
      });
    },

    invoke(call: Call<provpb.InvokeRequest>, done: Done<provpb.InvokeResponse>) {
      answer(done, async () => {
        const fn = FUNCTIONS[call.request.getTok()];
        if (fn === undefined) {
          throw new Error(
            `${PACKAGE} has no function ${JSON.stringify(call.request.getTok())}; its functions are ${Object.keys(FUNCTIONS).join(", ")}`,
          );
        }
        const result = await fn(fromStruct(call.request.getArgs()).values);
        return new pb.InvokeResponse().setReturn(toStruct(result));
      });
    },

    cancel(_call: Call<emptypb.Empty>, done: Done<emptypb.Empty>) {
      cancellation.cancel();
      done(null, new Empty());
    },
  };
  return inCallContexts(service as never);
}

/** The SDK's service definition of `pulumirpc.ResourceProvider`. */
export function providerServiceDefinition(): grpc.ServiceDefinition {
  return sdkRequire<typeof provgrpc>("./proto/provider_grpc_pb")
    .ResourceProviderService as unknown as grpc.ServiceDefinition;
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
