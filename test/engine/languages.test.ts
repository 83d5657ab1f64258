/**
 * The Python and YAML language hosts of tools/language-hosts under the real CLI, with programs that use
 * no provider of ours: each reads its config (a plain value and a secret), exports both, and goes
 * through up, a no-change preview, `stack output`, `stack export` and destroy. The Python program runs
 * in the venv of tools/python/venv.sh, handed to the host by the wrapper: from OPSMANAGER_PYTHON_VENV,
 * or from the project's `virtualenv` option.
 */
import { describe, it } from "vitest";
import { describeLanguages, makeProgramStack } from "./support/languages";
import type { EngineStack } from "./support/stack";

const SECRET = "l4nguage-h0st-SECRET-7c1e";

const YAML_PROJECT = `name: smoke-yaml
runtime: yaml
config:
  who:
    type: string
variables:
  greeting: hello \${who}
outputs:
  greeting: \${greeting}
  token:
    fn::secret: \${token}
`;

const pythonProject = (virtualenv?: string) => `name: smoke-python
runtime:
  name: python
${virtualenv ? `  options:\n    virtualenv: ${virtualenv}\n` : ""}`;

const PYTHON_PROGRAM = `import sys
import pulumi

config = pulumi.Config()
pulumi.export("greeting", "hello " + config.require("who"))
pulumi.export("token", config.require_secret("token"))
pulumi.export("prefix", sys.prefix)
`;

/** up, a no-change preview, the outputs as a user reads them, the state's ciphertext, and destroy. */
async function lifecycle(
  stack: EngineStack,
  expect: import("vitest").ExpectStatic,
): Promise<Record<string, string>> {
  await stack.config("who", "world");
  await stack.config("token", SECRET, { secret: true });
  const up = await stack.pulumi(["up", "--yes"]);
  expect(up.stdout).toMatch(/token\s*: \[secret\]/);
  expect(up.stdout).not.toContain(SECRET);
  await stack.pulumi(["preview", "--expect-no-changes"]);

  const shown = JSON.parse((await stack.pulumi(["stack", "output", "--json"])).stdout) as Record<
    string,
    string
  >;
  expect(shown.greeting).toBe("hello world");
  expect(shown.token).toBe("[secret]");
  const revealed = JSON.parse(
    (await stack.pulumi(["stack", "output", "--json", "--show-secrets"])).stdout,
  ) as Record<string, string>;
  expect(revealed.token).toBe(SECRET);
  const exported = JSON.stringify(await stack.exportState());
  expect(exported).not.toContain(SECRET);
  expect(exported).toContain("ciphertext");

  const destroy = await stack.pulumi(["destroy", "--yes"]);
  expect(destroy.stdout).toMatch(/1 deleted/);
  expect((await stack.exportState()).deployment.resources ?? []).toEqual([]);
  return revealed;
}

describeLanguages(
  "test/engine/languages: the Python and YAML language hosts under the real pulumi",
  (tools) => {
    describe.concurrent("programs without a provider", () => {
      it("a YAML program reads its config, keeps its secret a secret, and is destroyed", async ({
        expect,
        onTestFinished,
      }) => {
        const stack = await makeProgramStack(tools, { files: { "Pulumi.yaml": YAML_PROJECT } });
        onTestFinished(() => stack.cleanup());
        await lifecycle(stack, expect);
      });

      it("a Python program runs in the venv OPSMANAGER_PYTHON_VENV names, reads its config, keeps its secret a secret", async ({
        expect,
        onTestFinished,
      }) => {
        const stack = await makeProgramStack(tools, {
          files: { "Pulumi.yaml": pythonProject(), "__main__.py": PYTHON_PROGRAM },
        });
        onTestFinished(() => stack.cleanup());
        const outputs = await lifecycle(stack, expect);
        expect(outputs.prefix).toBe(tools.venv);
      });

      it("a Python program runs in the venv its Pulumi.yaml names (runtime.options.virtualenv)", async ({
        expect,
        onTestFinished,
      }) => {
        const stack = await makeProgramStack(tools, {
          files: { "Pulumi.yaml": pythonProject(tools.venv), "__main__.py": PYTHON_PROGRAM },
          noVenvVariable: true,
        });
        onTestFinished(() => stack.cleanup());
        const outputs = await lifecycle(stack, expect);
        expect(outputs.prefix).toBe(tools.venv);
      });
    });
  },
);
