import { OrgLevel, type OrgTreeNode } from '@intercom/contract';
import type { OrgParent } from './api';

/** What a picked tree node stands for. */
export interface OrgSelection {
  level: 0 | 1;
  eid: number;
  /** 0 for an enterprise; the OSID of a department. */
  id: number;
  name: string;
  /** The working enterprise itself (the tree's root). */
  root: boolean;
  /** The department's parent department (0: directly under the enterprise). */
  parentId: number;
}

/** Tree keys: `E:<eid>` for an enterprise, `O:<eid>:<OSID>` for a department. */
export function orgKeyOf(node: Pick<OrgTreeNode, 'level' | 'eid' | 'id'>): string {
  return node.level === OrgLevel.enterprise ? `E:${node.eid}` : `O:${node.eid}:${node.id}`;
}

/** The children query of a tree key. */
export function parentOfKey(key: string): OrgParent | undefined {
  const [kind, eid, id] = key.split(':');
  if (kind === 'E') return { eid: Number(eid), id: 0 };
  if (kind === 'O') return { eid: Number(eid), id: Number(id) };
  return undefined;
}
