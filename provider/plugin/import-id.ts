/**
 * The ids `pulumi import` takes for each resource type: two ids joined by `/`, the container first
 * (`<orgId>/<apiKeyId>`). A malformed id fails naming the form expected, before any request.
 */
import { hex24Rule } from "../api/ids";
import { ResourceError } from "../resources/shared/resource-error";

/** An import id's form: the resource's name and the names of its two parts. */
export interface ImportForm {
  resource: string;
  parts: readonly [string, string];
}

/** The two parts of `id`, each checked as an Ops Manager id (24 hexadecimal digits). */
export function parseImportId(form: ImportForm, id: string): [string, string] {
  const expected = `<${form.parts[0]}>/<${form.parts[1]}>`;
  const parts = id.split("/");
  const [first = "", second = ""] = parts;
  const bad =
    parts.length !== 2
      ? `is not of the form ${expected}`
      : (
          [
            [form.parts[0], first],
            [form.parts[1], second],
          ] as const
        )
          .map(([name, value]) => {
            const rule = hex24Rule(value);
            return rule === undefined ? undefined : `is not of the form ${expected}: its ${name} ${rule}`;
          })
          .find((reason) => reason !== undefined);
  if (bad !== undefined) {
    throw new ResourceError(
      `${form.resource}: the import id ${JSON.stringify(id)} ${bad}. Import it with pulumi import opsmanager:index:${form.resource} <name> ${expected}, for example pulumi import opsmanager:index:${form.resource} ${form.resource.charAt(0).toLowerCase()}${form.resource.slice(1)} 5f0000000000000000000001/5f0000000000000000000002.`,
    );
  }
  return [first, second];
}
