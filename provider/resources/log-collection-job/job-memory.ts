/**
 * What a deployment learns of a server's log collection jobs, one memory per client as every server
 * memory is (../shared/server-memory.ts), and forgotten with them by `resetServerMemoryForTests`.
 */
import type { DatabaseLogMemory } from "../../api/database-log";
import type { JobOperationKind } from "../../api/log-collection-job-answers";
import type { ApiError } from "../../client/errors";
import { perServer } from "../shared/server-memory";

/** What one client has seen of its server's jobs. */
export interface JobMemory {
  /** The answer that showed the server lacks an operation, by operation: each judged on its own. */
  readonly missing: Map<JobOperationKind, ApiError>;
  /** The warnings already given, by what they are about. */
  readonly warned: Set<string>;
  /** What the server showed of the database log's name (`MONGODB` or `DATABASE`). */
  readonly databaseLog: DatabaseLogMemory;
}

/** The job memory of `transport`'s server, made on first use. */
export const jobMemoryOf = perServer<JobMemory>(() => ({
  missing: new Map(),
  warned: new Set(),
  databaseLog: {},
}));
