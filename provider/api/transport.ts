import type { JsonResponse, RequestOptions } from "../client/types";

/** What the API layer needs of the transport: one JSON request. `HttpClient` is one. */
export interface Transport {
  request(options: RequestOptions): Promise<JsonResponse>;
}
