/**
 * Java digest servers from Debian's packages, started by the tests on 127.0.0.1: Jetty 9.4's
 * DigestAuthenticator (`libjetty9-java`), whose challenge is the deployed Ops Manager's character for
 * character, and Tomcat 10.1's (`libtomcat10-java`), which sends the same `opaque` in every challenge.
 * Each runs from a single-file Java program in this folder (`java Main.java`, no build), with one
 * site per nonce lifetime, every site behind its own authenticator, and writes one line to its
 * standard output per request once it has been answered: the round trips as the server counts them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { type Credentials, type LogLine, REALM, type RealServer } from "./servers";

const JAVA_DIR = "/usr/share/java";

const JARS = {
  jetty: [
    "jetty9-server",
    "jetty9-http",
    "jetty9-io",
    "jetty9-util",
    "jetty9-security",
    "jetty9-servlet",
    "servlet-api",
  ],
  tomcat: [
    "tomcat10-catalina",
    "tomcat10-coyote",
    "tomcat10-util",
    "tomcat10-util-scan",
    "tomcat10-juli",
    "tomcat10-api",
    "tomcat10-servlet-api",
    "tomcat10-jaspic-api",
    "tomcat10-annotations-api",
  ],
} as const;

const SOURCES = { jetty: "JettyDigest.java", tomcat: "TomcatDigest.java" } as const;

export type JavaServerKind = keyof typeof JARS;

const jarPath = (jar: string) => path.join(JAVA_DIR, `${jar}.jar`);

/** Where `name` is found on PATH, or `undefined`. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/** Why the Java servers cannot run here, or `undefined` when they can. */
export function missingJavaServers(): string | undefined {
  // A source-file launch compiles in memory: it needs a JDK, which javac stands for.
  const missing: string[] = [];
  if (!onPath("java") || !onPath("javac")) missing.push("a JDK (java and javac)");
  for (const jar of [...JARS.jetty, ...JARS.tomcat]) {
    if (!existsSync(jarPath(jar))) missing.push(jarPath(jar));
  }
  if (missing.length === 0) return undefined;
  return (
    `${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""} not installed: the Java digest servers ` +
    "need Debian's default-jdk-headless, libjetty9-java and libtomcat10-java (.ci/run installs them)"
  );
}

/** One authenticator's site: a base URL and the requests the server logged for it. */
export type JavaSite = Omit<RealServer, "close"> & {
  /** The nonce lifetime the authenticator was given, in ms. */
  nonceLifetimeMs: number;
};

export interface JavaServer {
  name: string;
  /** One per nonce lifetime asked for, in that order. */
  sites: JavaSite[];
  /** Stops the JVM and waits for it to exit. */
  close(): Promise<void>;
}

export interface JavaServerOptions {
  credentials: Credentials;
  /** One site per entry, its authenticator's nonce lifetime in ms (Jetty: maxNonceAge; Tomcat: nonceValidity). */
  nonceLifetimesMs: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Start-up flags for a short-lived JVM: no optimising compiler, the simplest collector, and a
// non-blocking seed for the authenticators' SecureRandom.
const JVM_FLAGS = [
  "-XX:TieredStopAtLevel=1",
  "-XX:+UseSerialGC",
  "-Xshare:auto",
  "-Djava.security.egd=file:/dev/urandom",
];

/**
 * Starts Jetty or Tomcat with one digest-protected site per nonce lifetime. Jetty serves each site at
 * the root of its own port (its challenge then reads `domain=""`, as the deployed server's does);
 * Tomcat serves them at `/c0`, `/c1`, … of one port.
 */
export async function startJavaServer(kind: JavaServerKind, options: JavaServerOptions): Promise<JavaServer> {
  const classpath = JARS[kind].map(jarPath).join(path.delimiter);
  const source = path.join(__dirname, SOURCES[kind]);
  const lifetimes = options.nonceLifetimesMs;
  const workDir = await mkdtemp(path.join(tmpdir(), `interop-${kind}-`));
  const child: ChildProcess = spawn(
    "java",
    [...JVM_FLAGS, "-cp", classpath, source, ...lifetimes.map(String)],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        DIGEST_USER: options.credentials.username,
        DIGEST_PASSWORD: options.credentials.password,
        DIGEST_REALM: REALM,
        DIGEST_WORK_DIR: workDir,
      },
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4_000);
  });
  const logs: LogLine[][] = lifetimes.map(() => []);
  const ports: number[] = [];
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  lines.on("line", (line) => {
    const [word, ...rest] = line.split(" ");
    if (word === "listening") {
      // Jetty: "listening <index> <port>"; Tomcat: "listening <port>".
      ports.push(Number(rest[rest.length - 1]));
    } else if (word === "request") {
      // Tomcat's lines go on with the nonce and the count signed with, "-" for none.
      const [index = "", method = "", target = "", status = "0", nonce = "-", nc = "-"] = rest;
      const entry: LogLine = { method, target, status: Number(status) };
      if (nonce !== "-") entry.nonce = nonce;
      if (nc !== "-") entry.nc = Number.parseInt(nc, 16);
      logs[Number(index)]?.push(entry);
    }
  });
  const expected = kind === "jetty" ? lifetimes.length : 1;
  // A JVM that compiles its source at start takes seconds, more on a busy machine.
  const deadline = Date.now() + 90_000;
  while (ports.length < expected) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      await exited;
      await rm(workDir, { recursive: true, force: true });
      throw new Error(`${kind} did not start (exit ${child.exitCode}): ${stderr}`);
    }
    await sleep(50);
  }

  const name = kind === "jetty" ? "Jetty 9.4 DigestAuthenticator" : "Tomcat 10.1 DigestAuthenticator";
  const sites = lifetimes.map((nonceLifetimeMs, i): JavaSite => {
    const log = logs[i] as LogLine[];
    const baseUrl =
      kind === "jetty" ? `http://127.0.0.1:${ports[i]}/api` : `http://127.0.0.1:${ports[0]}/c${i}/api`;
    return {
      name: `${name}, nonces living ${nonceLifetimeMs / 1000} s`,
      baseUrl,
      nonceLifetimeMs,
      log: async () => [...log],
      logAtLeast: async (count) => {
        const until = Date.now() + 5_000;
        while (log.length < count && Date.now() < until) await sleep(20);
        return [...log];
      },
    };
  });
  return {
    name,
    sites,
    close: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
      await rm(workDir, { recursive: true, force: true });
    },
  };
}
