import type { OrganRow } from '@intercom/contract';

/** A department as a tree select shows it. */
export interface DepartmentOption {
  value: number;
  title: string;
  children: DepartmentOption[];
}

/**
 * Departments as a tree; `exclude` and everything below it are left out (a department's own parent
 * choice). Departments whose parent is not in the list still show, at the top.
 */
export function departmentTree(rows: readonly OrganRow[], exclude?: number): DepartmentOption[] {
  const byParent = new Map<number, OrganRow[]>();
  for (const row of rows) byParent.set(row.OSParentID, [...(byParent.get(row.OSParentID) ?? []), row]);
  const known = new Set(rows.map((r) => r.OSID));
  const build = (parent: number, depth: number): DepartmentOption[] =>
    (byParent.get(parent) ?? [])
      .filter((row) => row.OSID !== exclude)
      .map((row) => ({
        value: row.OSID,
        title: row.OSName,
        children: depth < 64 ? build(row.OSID, depth + 1) : [],
      }));
  const orphans = rows.filter((r) => r.OSParentID !== 0 && !known.has(r.OSParentID)).map((r) => r.OSParentID);
  return [...build(0, 0), ...[...new Set(orphans)].flatMap((parent) => build(parent, 0))];
}
