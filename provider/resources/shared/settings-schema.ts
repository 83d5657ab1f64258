/**
 * The provider's configuration as the provider plugin's schema describes it (`provider/schema.ts`): the
 * stack config `opsmanager:<key>` and the inputs of an explicit `opsmanager.Provider`, one property per
 * setting of `settings.ts`, in the README's words. Named servers (`opsmanager:servers`) are left out:
 * they are the dynamic face's; the plugin serves several servers as several provider instances.
 */
import type { PropertyDescriptor } from "./schema-descriptor";
import type { SettingName } from "./settings";

// No environment defaults in the schema: an SDK would read the variable in the program and send its
// value as an input, into the provider's state; the provider reads the environment itself, at call time.
const FALLBACK = "When not set, the provider reads the environment variable";

/** Each setting of `SETTINGS`: the compiler requires every one of them. */
export const SETTINGS_SCHEMA = {
  baseUrl: {
    type: { type: "string" },
    description:
      "The server URL, as you type it: `https://om.example.com:8443`; `/api/public/v1.0` is appended unless the URL " +
      `has a path, which is then the API root. ${FALLBACK} \`OPSMANAGER_BASE_URL\` or \`MCLI_OPS_MANAGER_URL\`.`,
    required: false,
  },
  publicKey: {
    type: { type: "string" },
    description: `The API key's public key, or a user name. ${FALLBACK} \`OPSMANAGER_PUBLIC_KEY\` or \`MCLI_PUBLIC_API_KEY\`.`,
    required: false,
  },
  privateKey: {
    type: { type: "string" },
    description:
      "The API key's private key, or that user's API key: a secret, used only to compute digest responses. " +
      `${FALLBACK} \`OPSMANAGER_PRIVATE_KEY\` or \`MCLI_PRIVATE_API_KEY\`.`,
    required: false,
    secret: true,
  },
  caCertificate: {
    type: { type: "string" },
    description:
      "The path of a PEM file of the certificate authority that signed the server's certificate, added to Node's " +
      `default trust store. ${FALLBACK} \`OPSMANAGER_CA_CERTIFICATE\`.`,
    required: false,
  },
  timeoutSeconds: {
    type: { type: "number" },
    description: `Time allowed for one HTTP attempt, in seconds, default 30. ${FALLBACK} \`OPSMANAGER_TIMEOUT_SECONDS\`.`,
    required: false,
  },
} satisfies Record<SettingName, PropertyDescriptor & { required: false }>;
