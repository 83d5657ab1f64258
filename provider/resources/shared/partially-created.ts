/**
 * What Pulumi's dynamic-provider host reads off an error thrown by `create` (`grpcResponseFromError`
 * in `@pulumi/pulumi/cmd/dynamic-provider`): with an `id`, it reports an `ErrorResourceInitFailed`
 * and the engine keeps the resource in state with these outputs, as a partially created resource.
 */
export interface PartialCreate<Outputs> {
  id: string;
  properties: Outputs;
  reasons: string[];
}

/**
 * `error`, to be thrown from `create`, made to say that the server created resource `id` though the
 * create could not finish: the engine records it with `properties` as its outputs, so that it is
 * neither lost nor made again, and the next `pulumi up` or `pulumi refresh` settles it. The reason
 * recorded is the error's message.
 */
export function partiallyCreated<Outputs>(
  error: Error,
  id: string,
  properties: Outputs,
): Error & PartialCreate<Outputs> {
  const partial: PartialCreate<Outputs> = { id, properties, reasons: [error.message] };
  return Object.assign(error, partial);
}

/**
 * `properties` with the serialized provider text of `inputs` (`__provider`). Pulumi's dynamic-provider
 * host adds that text to a create's outputs, but records a partial create's properties as they are
 * (`grpcResponseFromError`): without it, the resource's later delete or refresh cannot load its provider
 * ("code must be a string, not undefined"). Nothing is added where the inputs carry no text (the plugin).
 */
export function withProviderText<P extends object>(properties: P, inputs: object): P {
  const text = (inputs as { __provider?: unknown }).__provider;
  return typeof text === "string" ? { ...properties, __provider: text } : properties;
}
