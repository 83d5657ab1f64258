/**
 * The provider's settings as the simulator's startup text names them: the stack config key and the
 * environment variable a user sets to point the provider at the simulator. Written out here, not
 * imported, so that the simulator stands alone as a model of the server; a test holds them to the
 * provider's own list (`provider/resources/settings.ts`, `SETTINGS`) so that the two cannot drift.
 */
export const STACK_SETTINGS = {
  baseUrl: { config: "opsmanager:baseUrl", env: "OPSMANAGER_BASE_URL" },
  publicKey: { config: "opsmanager:publicKey", env: "OPSMANAGER_PUBLIC_KEY" },
  privateKey: { config: "opsmanager:privateKey", env: "OPSMANAGER_PRIVATE_KEY" },
  caCertificate: { config: "opsmanager:caCertificate", env: "OPSMANAGER_CA_CERTIFICATE" },
} as const;
