/**
 * A certificate authority and a server certificate for 127.0.0.1 and localhost, made with `openssl`
 * in a temporary directory at test time (nothing secret is checked in).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

export interface TestPki {
  /** PEM of the CA certificate: what a user gives as `caCertificate`. */
  caPem: string;
  serverKey: string;
  serverCert: string;
}

export function makeTestPki(): TestPki {
  const dir = mkdtempSync(path.join(tmpdir(), "om-client-ca-"));
  const file = (name: string): string => path.join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync("openssl", args, { stdio: "pipe" });
  };
  try {
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
      "/CN=Ops Manager Test CA",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    );
    openssl(
      "req",
      ...ec,
      "-keyout",
      file("server.key"),
      "-out",
      file("server.csr"),
      "-subj",
      "/CN=localhost",
    );
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
    return {
      caPem: readFileSync(file("ca.pem"), "utf8"),
      serverKey: readFileSync(file("server.key"), "utf8"),
      serverCert: readFileSync(file("server.pem"), "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
