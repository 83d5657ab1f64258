/**
 * The simulator's state kept in a JSON file (`--state-file`): read once at start, written a moment
 * after each change (changes close together make one write), always whole, never half a file.
 *
 * Versions: 1 held organizations, groups, keys (their project roles are their project assignments) and
 * jobs; 2 adds the keys' access lists. A version 1 file is read as a version 2 file whose keys have
 * empty access lists, and is written back as version 2.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { SimAccessListEntry, SimApiKey, SimLogCollectionJob } from "./types";

const STATE_FORMAT = "ops-manager-simulator-state";
const STATE_VERSION = 2;
const READABLE_VERSIONS: readonly unknown[] = [1, STATE_VERSION];
const SAVE_DEBOUNCE_MS = 25;

/** What a state file holds besides its format and version. */
export interface StateSnapshot {
  orgId: string;
  groupId: string;
  adminKeyId: string;
  prng: number;
  generated: number;
  orgs: string[];
  groups: string[];
  apiKeys: SimApiKey[];
  jobs: SimLogCollectionJob[];
  /** Each key's access list, by key id; keys without entries are left out. */
  accessLists: Record<string, SimAccessListEntry[]>;
}

interface StateFileContent extends StateSnapshot {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
}

/** What a version 1 file holds: no access lists. */
type StateFileContentV1 = Omit<StateFileContent, "version" | "accessLists"> & { version: 1 };

/** One state file: what it holds, and its writes. */
export class StateFile {
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;

  /** `snapshot` gives the state as it is now, for each write. */
  constructor(
    readonly file: string,
    private readonly snapshot: () => StateSnapshot,
  ) {}

  /** The state `file` holds; throws when it is not JSON or not a version 1 or 2 simulator state. */
  static read(file: string): StateSnapshot {
    const text = fs.readFileSync(file, "utf8");
    let data: StateFileContent | StateFileContentV1;
    try {
      data = JSON.parse(text) as StateFileContent | StateFileContentV1;
    } catch (error) {
      throw new Error(`simulator state file ${file} is not JSON: ${(error as Error).message}`);
    }
    if (
      data === null ||
      typeof data !== "object" ||
      data.format !== STATE_FORMAT ||
      !READABLE_VERSIONS.includes(data.version)
    ) {
      throw new Error(`simulator state file ${file} is not a version 1 or 2 simulator state`);
    }
    return data.version === 1 ? { ...data, accessLists: {} } : data;
  }

  /** The state changed: write it soon. */
  changed(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, SAVE_DEBOUNCE_MS);
    this.timer.unref();
  }

  /** The state is what the file holds (it was just read from it): nothing to write on flush. */
  saved(): void {
    this.dirty = false;
  }

  /** Writes any pending change now and waits for it. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.dirty) this.write();
    await this.saving;
  }

  private write(): void {
    const file = this.file;
    this.dirty = false;
    const content: StateFileContent = { format: STATE_FORMAT, version: STATE_VERSION, ...this.snapshot() };
    const text = `${JSON.stringify(content, null, 1)}\n`;
    // Write to a temporary file and rename it so a reader never sees half a file.
    const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
    this.saving = this.saving
      .then(async () => {
        await fs.promises.writeFile(tmp, text, { mode: 0o600 });
        await fs.promises.rename(tmp, file);
      })
      .catch((error: unknown) => {
        process.emitWarning(`simulator could not write ${file}: ${(error as Error).message}`);
      });
  }
}
