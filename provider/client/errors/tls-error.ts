import { callHead, hostOf } from "./format";
import { NetworkError, type NetworkErrorInit } from "./network-error";

/** Node's codes for a server certificate that does not verify. */
export const TLS_VERIFICATION_CODES: readonly string[] = [
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_GET_ISSUER_CERT",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_UNTRUSTED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
];

/**
 * The server's TLS certificate is not trusted (code `OM_ERR_TLS`). Nothing was sent. The usual fix
 * for a self-hosted server is to give its certificate authority, PEM text, as `caPem`.
 */
export class TlsError extends NetworkError {
  constructor(init: TlsErrorInit) {
    const { setting, ...rest } = init;
    super({ ...rest, requestSent: false }, "OM_ERR_TLS", formatTlsMessage(init));
    this.name = "TlsError";
  }
}

/** A TLS failure, and how the user names the CA certificate setting. */
export interface TlsErrorInit extends Omit<NetworkErrorInit, "requestSent"> {
  /** The setting that gives a CA certificate, as the user knows it. Default `caPem`, the client option. */
  setting?: string;
}

function formatTlsMessage(init: TlsErrorInit): string {
  const setting = init.setting ?? "caPem";
  const code = init.causeCode ?? "TLS";
  // The server is named here, since the URL is not in the message: its certificate is what to check.
  const head = `${callHead(init)} failed: the server's certificate is not trusted (${code}, server at ${hostOf(init.url, true)})`;
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID") {
    return (
      `${head}: it does not name the host in the URL; use the host name the certificate was issued for, ` +
      `or, if the certificate authority is private, also give the PEM file of the certificate authority ` +
      `as the CA certificate setting (${setting})`
    );
  }
  if (code === "CERT_HAS_EXPIRED" || code === "CERT_NOT_YET_VALID") {
    return `${head}: it is outside its validity period; renew the server's certificate or check this machine's clock`;
  }
  return (
    `${head}; if the server uses a private certificate authority, give the PEM file of its certificate ` +
    `authority as the CA certificate setting (${setting})`
  );
}
