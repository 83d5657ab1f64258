/** Roles (or any names) as a set: each once, sorted, so that two spellings of one set compare equal. */
export function roleSet(roles: readonly string[]): string[] {
  return [...new Set(roles)].sort();
}

/** Whether two lists of roles hold the same roles, in any order. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = roleSet(a);
  const y = roleSet(b);
  return x.length === y.length && x.every((r, i) => r === y[i]);
}
