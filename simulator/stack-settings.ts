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

/**
 * The stack config key of several named servers: one object holding, under each server's name, that
 * server's settings by the names of {@link STACK_SETTINGS} (`baseUrl`, `publicKey`, …). It has no
 * environment variable.
 */
export const SERVERS_SETTING = { config: "opsmanager:servers" } as const;

/**
 * The `pulumi config set --path` key of one named server's setting.
 * @example
 * serverSettingPath("sim2", "baseUrl"); // "opsmanager:servers.sim2.baseUrl"
 */
export function serverSettingPath(server: string, setting: keyof typeof STACK_SETTINGS): string {
  return `${SERVERS_SETTING.config}.${server}.${setting}`;
}
