/**
 * A private certificate authority and a server certificate it signed for 127.0.0.1 and localhost
 * (subjectAltName), made with `openssl` in a temporary directory the first time a test asks for one,
 * and kept for the life of the process (nothing secret is checked in).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

/** A test CA and the server certificate it issued. */
export interface TestCa {
  /** PEM of the CA certificate: what a user gives as `opsmanager:caCertificate`. */
  caPem: string;
  /** Path of a file holding {@link caPem}, for settings that take a file. Lives until the process exits. */
  caPath: string;
  /** PEM of the server's private key. */
  serverKey: string;
  /** PEM of the server's certificate (CN=localhost, SAN IP:127.0.0.1, DNS:localhost), signed by the CA. */
  serverCert: string;
}

const cache = new Map<string, TestCa>();
const dirs: string[] = [];

function openssl(...args: string[]): void {
  execFileSync("openssl", args, { stdio: "pipe" });
}

function generate(name: string): TestCa {
  const dir = mkdtempSync(path.join(tmpdir(), "opsm-test-ca-"));
  if (dirs.length === 0) {
    process.once("exit", () => {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });
  }
  dirs.push(dir);
  const file = (f: string): string => path.join(dir, f);
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(
    "req",
    "-x509",
    ...ec,
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
    "-days",
    "2",
    "-subj",
    `/CN=${name}`,
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  );
  openssl("req", ...ec, "-keyout", file("server.key"), "-out", file("server.csr"), "-subj", "/CN=localhost");
  writeFileSync(
    file("ext.cnf"),
    "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n" +
      "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n",
  );
  openssl(
    "x509",
    "-req",
    "-in",
    file("server.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-out",
    file("server.pem"),
    "-days",
    "2",
    "-extfile",
    file("ext.cnf"),
  );
  // Only the CA certificate stays on disk: the keys are not needed as files.
  rmSync(file("ca.key"));
  return {
    caPem: readFileSync(file("ca.pem"), "utf8"),
    caPath: file("ca.pem"),
    serverKey: readFileSync(file("server.key"), "utf8"),
    serverCert: readFileSync(file("server.pem"), "utf8"),
  };
}

/**
 * The process's test CA called `name` (default "Ops Manager Test CA"), made on first use. Two names
 * give two unrelated CAs: a certificate of one does not verify with the other.
 *
 * @example
 * const ca = makeTestCa();
 * const sim = await startSimulator({ tls: { key: ca.serverKey, cert: ca.serverCert } });
 * host.configure({ "opsmanager:caCertificate": ca.caPath, ... });
 */
export function makeTestCa(name = "Ops Manager Test CA"): TestCa {
  let ca = cache.get(name);
  if (ca === undefined) {
    ca = generate(name);
    cache.set(name, ca);
  }
  return ca;
}
