/**
 * The engine bench's own tooling (bench/engine.js, bench/lib/): the launchers it writes for each
 * provider plugin, bench/lib/host-usage.js and bench/lib/timeline.js loaded into what they start, and
 * bench/lib/timeline-summary.js reading what those write. A plugin stand-in, started through a real
 * launcher in a folder whose path has a space, serves one gRPC call over node:http2 and makes one HTTP
 * request with undici, prints its port, and is ended by SIGINT as the engine ends a plugin: the files it
 * leaves are what the bench reads.
 */
import { spawn } from "node:child_process";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const { pluginLauncher } = require("../../bench/engine.js") as {
  pluginLauncher(folder: string, entry: string, options?: { binary?: boolean }): Promise<string>;
};
const { summarize } = require("../../bench/lib/timeline-summary.js") as {
  summarize(timeline: unknown): string[];
};

interface TimelineEvent {
  what: string;
  start: number;
  end: number;
  name?: string;
}

/**
 * The stand-in: a gRPC-shaped call to itself (a Read whose body holds a URN as a protobuf string), a GET
 * of an organization's keys from a local HTTP server with undici, then its port line; it waits there
 * to be ended.
 */
const STAND_IN = `
const http = require("node:http");
const http2 = require("node:http2");
const undici = require(${JSON.stringify(require.resolve("undici"))});
(async () => {
  const grpc = http2.createServer();
  grpc.on("stream", (stream) => {
    stream.on("data", () => {});
    stream.on("end", () => { stream.respond({ ":status": 200 }); stream.end(); });
  });
  await new Promise((r) => grpc.listen(0, "127.0.0.1", r));
  const client = http2.connect("http://127.0.0.1:" + grpc.address().port);
  const urn = Buffer.from("urn:pulumi:dev::proj::opsmanager:index:OrgApiKey::key-1");
  const body = Buffer.concat([Buffer.from([0x0a, urn.length]), urn]);
  await new Promise((resolve, reject) => {
    const req = client.request({ ":method": "POST", ":path": "/pulumirpc.ResourceProvider/Read" });
    req.on("response", () => {});
    req.on("data", () => {});
    req.on("end", resolve);
    req.on("error", reject);
    req.end(body);
  });
  client.close();
  const api = http.createServer((q, s) => s.end("{}"));
  await new Promise((r) => api.listen(0, "127.0.0.1", r));
  const res = await undici.request("http://127.0.0.1:" + api.address().port +
    "/api/public/v1.0/orgs/5f0000000000000000000001/apiKeys?pageNum=1");
  await res.body.text();
  api.close();
  process.stdout.write(grpc.address().port + "\\n");
  setInterval(() => {}, 1000);
})();
`;

let dir: string;
beforeEach(async () => {
  // A space in every path the launcher names, as a clone at "/home/me/my projects/…" has.
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm bench tooling "));
  await fsp.mkdir(path.join(dir, "usage"));
  await fsp.mkdir(path.join(dir, "timeline"));
});
afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

/** Runs the launcher in `folder` until its port line, then ends it with SIGINT; resolves its exit code. */
function runUntilPort(folder: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(path.join(folder, "pulumi-resource-opsmanager"), ["127.0.0.1:1"], {
    env: {
      ...process.env,
      OPSMANAGER_BENCH_USAGE_DIR: path.join(dir, "usage"),
      OPSMANAGER_BENCH_TIMELINE_DIR: path.join(dir, "timeline"),
      OPSMANAGER_BENCH_HOST_NODE_OPTIONS: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (c) => {
    stderr += c;
  });
  child.stdout.on("data", (c) => {
    stdout += c;
    if (stdout.includes("\n")) child.kill("SIGINT");
  });
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

/** The one timeline file the run left, as the bench gathers it into a command's file. */
async function timelineOfRun(): Promise<{ pid: number; events: TimelineEvent[] }> {
  const files = await fsp.readdir(path.join(dir, "timeline"));
  expect(files).toHaveLength(1);
  const events = JSON.parse(await fsp.readFile(path.join(dir, "timeline", files[0]!), "utf8"));
  return { pid: Number(files[0]!.replace(/\D/g, "")), events };
}

describe("the engine bench's launchers, with host-usage.js and timeline.js", () => {
  for (const binary of [false, true]) {
    it(
      binary
        ? "a single executable's launcher (NODE_OPTIONS) loads them from a path with a space, and both write their files"
        : "a script's launcher loads them from a path with a space, and both write their files",
      async () => {
        const script = path.join(dir, "stand in.js");
        await fsp.writeFile(script, STAND_IN);
        // A single executable is a program that reads NODE_OPTIONS: a shell script that runs node stands in.
        const entry = binary ? path.join(dir, "stand in executable") : script;
        if (binary) {
          await fsp.writeFile(
            entry,
            `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(script)} "$@"\n`,
            {
              mode: 0o755,
            },
          );
        }
        const folder = await pluginLauncher(path.join(dir, "launcher folder"), entry, { binary });
        const run = await runUntilPort(folder);
        expect(run.stderr).toBe("");
        expect(run.stdout).toMatch(/^\d+\n$/);
        // host-usage.js turned the SIGINT into an exit, as a death by SIGINT reports it.
        expect(run.code).toBe(130);

        const usage = await fsp.readdir(path.join(dir, "usage"));
        expect(usage).toHaveLength(1);
        const figures = JSON.parse(await fsp.readFile(path.join(dir, "usage", usage[0]!), "utf8"));
        expect(figures.cpuMs).toBeGreaterThan(0);
        expect(figures.maxRssKiB).toBeGreaterThan(1024);

        const { pid, events } = await timelineOfRun();
        expect(usage[0]).toBe(`${pid}.json`);
        const order = events.map((e) => e.what);
        expect(order[0]).toBe("process start");
        expect(order.at(-1)).toBe("exit");
        expect(order).toContain("port printed");
        const read = events.find((e) => e.what === "grpc Read");
        expect(read?.name).toBe("key-1");
        const get = events.find((e) => e.what.startsWith("http "));
        // The path below the API root, its id written {id}, the query left out.
        expect(get?.what).toBe("http GET /orgs/{id}/apiKeys");
        for (const e of events) expect(e.end).toBeGreaterThanOrEqual(e.start);
        const port = events.find((e) => e.what === "port printed")!;
        expect(read!.end).toBeLessThanOrEqual(port.start);
        expect(get!.end).toBeLessThanOrEqual(port.start);
      },
    );
  }

  it("a process started without the bench's folders writes nothing and changes no output", async () => {
    const script = path.join(dir, "plain.js");
    await fsp.writeFile(script, 'process.stdout.write("1234\\n");');
    const launcher = await pluginLauncher(path.join(dir, "launcher folder"), script);
    const child = spawn(path.join(launcher, "pulumi-resource-opsmanager"), [], {
      env: { ...process.env, OPSMANAGER_BENCH_USAGE_DIR: "", OPSMANAGER_BENCH_TIMELINE_DIR: "" },
    });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    expect(out).toBe("1234\n");
    expect(await fsp.readdir(path.join(dir, "usage"))).toEqual([]);
    expect(await fsp.readdir(path.join(dir, "timeline"))).toEqual([]);
  });
});

describe("timeline-summary.js", () => {
  /** A call of `what` from `start` to `end` ms after the command's start (at 1,000,000). */
  const at = (what: string, start: number, end = start) => ({
    what,
    start: 1_000_000 + start,
    end: 1_000_000 + end,
  });

  it("prints each process's marks, then each kind by its first start: count, span and median, and sixteenths from 32", () => {
    const reads = Array.from({ length: 32 }, (_, i) => at("grpc Read", 100 + i, 110 + 2 * i));
    const timeline = {
      provider: "plugin",
      command: "refresh",
      start: 1_000_000,
      end: 1_000_500,
      processes: [
        {
          pid: 42,
          events: [
            at("process start", 10),
            at("port printed", 60),
            at("grpc Configure", 70, 73),
            // Begun before the reads, though recorded after them: it is listed before them.
            at("http GET /orgs/{id}/apiKeys", 95, 195),
            ...reads,
            at("http GET /orgs/{id}/apiKeys", 96, 150),
            at("exit", 480),
          ],
        },
      ],
    };
    expect(summarize(timeline)).toEqual([
      "plugin refresh: 500 ms, 1 provider process(es)",
      "  process 42: process start 10, port printed 60, exit 480",
      "    grpc Configure               ×1        70 to     73, median 3.0 ms each",
      "    http GET /orgs/{id}/apiKeys  ×2        95 to    195, median 54.0 ms each",
      // Read i took 10 + i ms: the lower middle of 32 is read 15's 25 ms.
      "    grpc Read                    ×32      100 to    172, median 25.0 ms each",
      // Closed at 110, 112, … 172: the second of each pair closes each sixteenth.
      "      closed by sixteenths: 112 116 120 124 128 132 136 140 144 148 152 156 160 164 168 172",
    ]);
  });

  it("orders processes by their start and prints no sixteenths under 32 calls", () => {
    const lines = summarize({
      provider: "noop-plugin",
      command: "up",
      start: 1_000_000,
      end: 1_002_000,
      processes: [
        { pid: 2, events: [at("process start", 300), at("grpc Create", 400, 410), at("exit", 900)] },
        { pid: 1, events: [at("process start", 200), at("exit", 800)] },
      ],
    });
    expect(lines).toEqual([
      "noop-plugin up: 2,000 ms, 2 provider process(es)",
      "  process 1: process start 200, exit 800",
      "  process 2: process start 300, exit 900",
      "    grpc Create                  ×1       400 to    410, median 10.0 ms each",
    ]);
  });
});
