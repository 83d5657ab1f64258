/**
 * What the reference says a resource outputs is what TypeScript lets a program read: for each resource
 * class the package exports, the names in docs/resources.md's output table (the README's Resources
 * link there) are the class's declared outputs
 * (`declare readonly x: pulumi.Output<T>`), which are the properties of the provider's outputs type
 * (`<Name>Outputs`, what its methods return), each with the same type; and an output that is also an
 * input has the type the input takes (`roles`: `OrgRole[]`). Read from the TypeScript sources with the
 * compiler's own API.
 */
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { codeNames, ROOT, readDoc, section, tables } from "./markdown";

const configFile = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
const entry = path.join(ROOT, "provider", "index.ts");
const program = ts.createProgram([entry], { ...config.options, noEmit: true });
const checker = program.getTypeChecker();
const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!);

/** The declaration an exported name stands for (through `export { x as y } from`). */
function exportedSymbol(name: string): ts.Symbol | undefined {
  const symbol = exported.find((s) => s.name === name);
  if (!symbol) return undefined;
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/**
 * The resource classes the package exports: those that extend `pulumi.CustomResource` (with the type
 * tokens of dynamic resources and a provider text of their own, shared/providers.ts).
 */
const resourceClasses = exported
  .map((s) => exportedSymbol(s.name)!)
  .flatMap((s) =>
    s.valueDeclaration && ts.isClassDeclaration(s.valueDeclaration) ? [s.valueDeclaration] : [],
  )
  .filter((c) =>
    c.heritageClauses?.some((h) => h.types.some((t) => t.expression.getText() === "pulumi.CustomResource")),
  );

/** A class's declared outputs: each `declare readonly name: pulumi.Output<T>`, with T's type. */
function declaredOutputs(c: ts.ClassDeclaration): Map<string, ts.Type> {
  const outputs = new Map<string, ts.Type>();
  for (const member of c.members) {
    if (!ts.isPropertyDeclaration(member)) continue;
    const modifiers = ts.getModifiers(member)?.map((m) => m.kind) ?? [];
    if (!modifiers.includes(ts.SyntaxKind.DeclareKeyword)) continue;
    const name = member.name.getText();
    expect(modifiers, `${c.name!.text}.${name} is readonly`).toContain(ts.SyntaxKind.ReadonlyKeyword);
    const type = member.type;
    const isOutput =
      type !== undefined && ts.isTypeReferenceNode(type) && type.typeName.getText() === "pulumi.Output";
    expect(isOutput, `${c.name!.text}.${name} is a pulumi.Output<T>`).toBe(true);
    outputs.set(name, checker.getTypeFromTypeNode((type as ts.TypeReferenceNode).typeArguments![0]!));
  }
  return outputs;
}

/**
 * The properties of an exported interface (`OrgApiKeyOutputs`), each with its type (an optional one's
 * with `undefined`, as a program reads it).
 */
function properties(typeName: string): Map<string, ts.Type> {
  const symbol = exportedSymbol(typeName);
  expect(symbol, `provider/index.ts exports ${typeName}`).toBeDefined();
  const type = checker.getDeclaredTypeOfSymbol(symbol!);
  return new Map(
    checker
      .getPropertiesOfType(type)
      .map((p) => [p.name, checker.getTypeOfSymbolAtLocation(p, p.valueDeclaration!)]),
  );
}

/** Whether two types are the same for a program: each assignable to the other. */
function sameType(a: ts.Type, b: ts.Type): boolean {
  return checker.isTypeAssignableTo(a, b) && checker.isTypeAssignableTo(b, a);
}

/** The reference of the resources, which the README links to for every input and output. */
const REFERENCE = "docs/resources.md";

/** The names of the reference's output table for a resource: the first table of its section headed "output". */
function documentedOutputs(name: string): string[] {
  const lines = section(readDoc(REFERENCE), `## \`${name}\``);
  expect(lines, `${REFERENCE} has a section ## \`${name}\``).toBeDefined();
  const table = tables(lines!).find((t) => t.rows[0]![0] === "output");
  expect(table, `${REFERENCE}'s section on ${name} has a table whose first column is "output"`).toBeDefined();
  return table!.rows.slice(1).flatMap((row) => {
    const names = codeNames(row[0]!);
    expect(
      names.length,
      `${REFERENCE}:${table!.line}: each row of ${name}'s outputs names them as code`,
    ).toBeGreaterThan(0);
    return names;
  });
}

describe("resource outputs: the reference, the class and the provider agree", () => {
  it("the package exports its resource classes", () => {
    expect(resourceClasses.map((c) => c.name!.text)).toEqual(
      expect.arrayContaining(["OrgApiKey", "LogCollectionJob"]),
    );
  });

  for (const c of resourceClasses) {
    const name = c.name!.text;
    describe(name, () => {
      it("the reference's output table names exactly the class's declared outputs (and `id`, the base class's)", () => {
        const declared = declaredOutputs(c);
        const documented = documentedOutputs(name).filter((n) => n !== "id");
        expect([...new Set(documented)].sort()).toEqual([...declared.keys()].sort());
        expect(documented.length, "no output is named twice").toBe(new Set(documented).size);
      });

      it(`declares every output ${name}'s provider returns (${name}Outputs), each with its type`, () => {
        const declared = declaredOutputs(c);
        const returned = properties(`${name}Outputs`);
        expect([...declared.keys()].sort()).toEqual([...returned.keys()].sort());
        const differ = [...declared]
          .filter(([n, t]) => returned.has(n) && !sameType(t, returned.get(n)!))
          .map(
            ([n, t]) =>
              `${n}: declared ${checker.typeToString(t)}, returned ${checker.typeToString(returned.get(n)!)}`,
          );
        expect(differ).toEqual([]);
      });

      it(`an output that is also an input has the type the input takes (${name}Inputs)`, () => {
        const declared = declaredOutputs(c);
        const inputs = properties(`${name}Inputs`);
        const shared = [...declared].filter(([n]) => inputs.has(n));
        expect(shared.length).toBeGreaterThan(0);
        const differ = shared
          .filter(
            ([n, t]) => !sameType(checker.getNonNullableType(t), checker.getNonNullableType(inputs.get(n)!)),
          )
          .map(
            ([n, t]) =>
              `${n}: output ${checker.typeToString(t)}, input ${checker.typeToString(inputs.get(n)!)}`,
          );
        expect(differ).toEqual([]);
      });
    });
  }

  it("OrgApiKey's roles are OrgRole[] and its managed fields are a program's to read", () => {
    const key = resourceClasses.find((c) => c.name!.text === "OrgApiKey")!;
    const outputs = declaredOutputs(key);
    const orgRole = checker.getDeclaredTypeOfSymbol(exportedSymbol("OrgRole")!);
    const roles = outputs.get("roles")!;
    expect(checker.isArrayType(roles), `roles: ${checker.typeToString(roles)}`).toBe(true);
    const [element] = checker.getTypeArguments(roles as ts.TypeReference);
    expect(sameType(element!, orgRole), `roles: ${checker.typeToString(roles)}`).toBe(true);
    expect(checker.typeToString(outputs.get("managed")!)).toBe(
      '{ desc: boolean; roles: boolean; by: "apiKeyId" | "publicKey" | "created"; }',
    );
  });
});
