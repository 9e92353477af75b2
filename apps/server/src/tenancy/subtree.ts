/** `rootId` and every id below it, depth first, from each id's children (enterprises, departments). */
export function subtree(children: ReadonlyMap<number, readonly number[]>, rootId: number): number[] {
  const ids: number[] = [];
  const stack = [rootId];
  while (stack.length > 0) {
    const id = stack.pop() as number;
    ids.push(id);
    stack.push(...(children.get(id) ?? []));
  }
  return ids;
}
