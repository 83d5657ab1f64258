/**
 * What the simulator's command line prints once it listens: every line a shell command or a `#`
 * comment, so that the whole of it, or any line of it, can be pasted into a POSIX shell. One server's
 * text sets the provider's own settings (stack config, or the environment); several servers' text sets
 * each one's settings under its name in `opsmanager:servers`.
 */
import type { NamedSimulator } from "./servers";
import { SERVERS_SETTING, STACK_SETTINGS, serverSettingPath } from "./stack-settings";
import type { Simulator, SimulatorOptions } from "./types";

/** `value` in single quotes, as one POSIX shell word. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `value` as one shell word (POSIX): as it is when that is safe, else in single quotes. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : shellQuote(value);
}

/** The comments on what a simulator holds: its organization, project, a key to adopt, its state file. */
function worldLines(sim: Simulator, stateFile: string | undefined): string[] {
  const keys = sim.state.apiKeys(sim.orgId).filter((k) => k.publicKey !== sim.publicKey);
  const adopt = keys[0];
  return [
    `# Organization (orgId): ${sim.orgId}`,
    `# Project (groupId):    ${sim.groupId}`,
    adopt
      ? `# A key to adopt:       apiKeyId ${adopt.id}, publicKey ${adopt.publicKey} (${JSON.stringify(adopt.desc)})`
      : "# No key to adopt besides the admin key: --keys N generates some.",
    `# Keys in the org:      ${keys.length + 1}, the admin key included`,
    ...keys.slice(1, 5).map((k) => `#   ${k.id}  ${k.publicKey}  ${k.desc}`),
    ...(stateFile ? [`# State file: ${stateFile}`] : []),
  ];
}

/** What one simulator prints: the provider's settings as stack config and as the environment. */
export function startupText(sim: Simulator, opts: SimulatorOptions): string {
  const { baseUrl, publicKey, privateKey, caCertificate } = STACK_SETTINGS;
  const lines = [
    `# Ops Manager simulator listening on ${sim.url} (API root ${sim.apiRoot}, profile ${sim.profile})`,
    "#",
    "# Stack config, in your Pulumi project's directory:",
    `pulumi config set ${baseUrl.config} ${shellWord(sim.url)}`,
    `pulumi config set ${publicKey.config} ${shellWord(sim.publicKey)}`,
    `pulumi config set --secret ${privateKey.config} ${shellWord(sim.privateKey)}`,
    "#",
    "# Or the environment:",
    `export ${baseUrl.env}=${shellWord(sim.url)}`,
    `export ${publicKey.env}=${shellWord(sim.publicKey)}`,
    `export ${privateKey.env}=${shellWord(sim.privateKey)}`,
    ...(opts.tls
      ? [
          "#",
          `# Over HTTPS, also give the PEM file of the CA that signed --tls-cert: ${caCertificate.config}`,
          `# (pulumi config set ${caCertificate.config} FILE, or export ${caCertificate.env}=FILE).`,
        ]
      : []),
    "#",
    ...worldLines(sim, opts.stateFile),
    "# Press Ctrl+C to stop.",
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * What several simulators print: for each, its settings under its name in `opsmanager:servers`
 * (`pulumi config set --path 'opsmanager:servers.sim1.baseUrl' …`), then what it holds.
 */
export function serversStartupText(sims: readonly NamedSimulator[], opts: SimulatorOptions): string {
  const setting = (sim: NamedSimulator, name: keyof typeof STACK_SETTINGS) =>
    shellQuote(serverSettingPath(sim.name, name));
  const lines = [
    `# ${sims.length} Ops Manager simulators (profile ${opts.profile ?? "deployed"}), ` +
      "each its own organization, project, keys and admin credentials.",
    `# Stack config, in your Pulumi project's directory: each server's settings under its name in ${SERVERS_SETTING.config}.`,
    ...sims.flatMap((sim) => [
      "#",
      `# ${sim.name} listening on ${sim.url} (API root ${sim.apiRoot})`,
      `pulumi config set --path ${setting(sim, "baseUrl")} ${shellWord(sim.url)}`,
      `pulumi config set --path ${setting(sim, "publicKey")} ${shellWord(sim.publicKey)}`,
      `pulumi config set --secret --path ${setting(sim, "privateKey")} ${shellWord(sim.privateKey)}`,
      ...(opts.tls
        ? [
            "# Over HTTPS, also the PEM file of the CA that signed --tls-cert:",
            `# pulumi config set --path ${setting(sim, "caCertificate")} FILE`,
          ]
        : []),
      ...worldLines(sim, sim.stateFile),
    ]),
    "#",
    "# Press Ctrl+C to stop.",
  ];
  return `${lines.join("\n")}\n`;
}
