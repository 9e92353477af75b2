import { OrgLevel, type OrgTreeNode, type orgTreeQuerySchema } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/AppError.js';
import { inScope, type Scope } from '../../tenancy/scope.js';
import { childrenMap, organsOf } from './organRepository.js';

type TreeQuery = z.infer<typeof orgTreeQuerySchema>;

interface EnterpriseNodeRow {
  E_ID: number;
  E_Name: string;
  P_ID: number | null;
}

function enterpriseNode(e: EnterpriseNodeRow, userCount: number): OrgTreeNode {
  return {
    id: e.E_ID,
    pId: e.P_ID ?? 0,
    aid: `E${e.E_ID}`,
    name: e.E_Name,
    eid: e.E_ID,
    level: OrgLevel.enterprise,
    class: 'enterprise',
    userCount,
    icon: 'enterprise',
    isParent: true,
  };
}

/** Users per enterprise over the subtree of each enterprise of the scope. */
async function enterpriseUserCounts(
  db: Kysely<DB>,
  scope: Scope,
): Promise<{ rows: EnterpriseNodeRow[]; subtree: (id: number) => number }> {
  const ids = [...scope.enterpriseIds];
  const [rows, counts] = await Promise.all([
    db.selectFrom('enterprise').select(['E_ID', 'E_Name', 'P_ID']).where('E_ID', 'in', ids).orderBy('E_ID').execute(),
    db
      .selectFrom('terminal_user')
      .select((eb) => ['E_ID', eb.fn.countAll<number>().as('n')])
      .where('E_ID', 'in', ids)
      .groupBy('E_ID')
      .execute(),
  ]);
  const own = new Map(counts.map((c) => [c.E_ID, Number(c.n)]));
  const children = new Map<number, number[]>();
  for (const row of rows) {
    if (row.P_ID === null || !inScope(scope, row.P_ID)) continue;
    const siblings = children.get(row.P_ID);
    if (siblings) siblings.push(row.E_ID);
    else children.set(row.P_ID, [row.E_ID]);
  }
  const memo = new Map<number, number>();
  const subtree = (id: number): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const total = (own.get(id) ?? 0) + (children.get(id) ?? []).reduce((sum, child) => sum + subtree(child), 0);
    memo.set(id, total);
    return total;
  };
  return { rows, subtree };
}

/** Department nodes under `parentId` (0 = the enterprise) with the users of each department's subtree. */
async function departmentNodes(db: Kysely<DB>, enterpriseId: number, parentId: number): Promise<OrgTreeNode[]> {
  const organs = await organsOf(db, enterpriseId);
  const wanted = organs.filter((o) => o.OSParentID === parentId);
  if (wanted.length === 0) return [];
  const counts = await db
    .selectFrom('terminal_user')
    .select((eb) => ['OS_ID', eb.fn.countAll<number>().as('n')])
    .where('E_ID', '=', enterpriseId)
    .where('OS_ID', 'is not', null)
    .groupBy('OS_ID')
    .execute();
  const direct = new Map(counts.map((c) => [Number(c.OS_ID), Number(c.n)]));
  const children = childrenMap(organs);
  const memo = new Map<number, number>();
  const subtree = (id: number): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const total = (direct.get(id) ?? 0) + (children.get(id) ?? []).reduce((sum, child) => sum + subtree(child), 0);
    memo.set(id, total);
    return total;
  };
  return wanted.map((o) => {
    const userCount = subtree(o.OSID);
    return {
      id: o.OSID,
      pId: o.OSParentID,
      aid: `O${o.OSID}`,
      name: o.OSName,
      eid: enterpriseId,
      level: OrgLevel.department,
      class: 'department',
      userCount,
      icon: 'department',
      isParent: userCount > 0 || (children.get(o.OSID)?.length ?? 0) > 0,
    };
  });
}

/** One page of the users directly under a department (or, for 0, under no department). */
async function userNodes(
  db: Kysely<DB>,
  enterpriseId: number,
  organId: number,
  offset: number,
  limit: number,
  now: number,
) {
  const base = db
    .selectFrom('terminal_user')
    .where('E_ID', '=', enterpriseId)
    .where((eb) => (organId === 0 ? eb('OS_ID', 'is', null) : eb('OS_ID', '=', organId)));
  const [rows, count] = await Promise.all([
    base
      .select(['UserID', 'UserName', 'MobilePhone', 'OS_ID', 'IsLock', 'ExpireAt'])
      .orderBy('UserID')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  const nodes = rows.map((u): OrgTreeNode => ({
    id: u.UserID,
    pId: u.OS_ID ?? 0,
    aid: `U${u.UserID}`,
    name: u.UserName,
    eid: enterpriseId,
    level: OrgLevel.user,
    class: ['user', u.IsLock ? 'locked' : '', u.ExpireAt !== null && u.ExpireAt < now ? 'expired' : '']
      .filter(Boolean)
      .join(' '),
    userCount: 0,
    icon: 'user',
    isParent: false,
    phone: u.MobilePhone,
  }));
  return { nodes, total: Number(count?.n ?? 0) };
}

/**
 * `GET /api/Organ/GetOrganizeList`: the children of one node, loaded on demand so the tree stays
 * fast with 100,000 users. Data: (first load only) the enterprise's own node; then, on offset 0,
 * its sub-enterprises and departments; then one page of the users directly under the node.
 * Total: the users directly under the node, for paging with offset.
 */
export async function organizeList(db: Kysely<DB>, scope: Scope, query: TreeQuery, now = Date.now()) {
  const firstLoad = query.eid === undefined;
  const enterpriseId = query.eid ?? scope.rootId;
  if (!inScope(scope, enterpriseId)) throw AppError.notFound();
  if (query.id !== 0) {
    const organ = await db
      .selectFrom('organ')
      .select('OSID')
      .where('OSID', '=', query.id)
      .where('E_ID', '=', enterpriseId)
      .executeTakeFirst();
    if (!organ) throw AppError.notFound();
  }
  const nodes: OrgTreeNode[] = [];
  if (query.offset === 0) {
    if (query.id === 0) {
      const enterprises = await enterpriseUserCounts(db, scope);
      if (firstLoad) {
        const self = enterprises.rows.find((e) => e.E_ID === enterpriseId);
        if (self) nodes.push(enterpriseNode(self, enterprises.subtree(enterpriseId)));
      }
      for (const child of enterprises.rows.filter((e) => e.P_ID === enterpriseId)) {
        nodes.push(enterpriseNode(child, enterprises.subtree(child.E_ID)));
      }
    }
    nodes.push(...(await departmentNodes(db, enterpriseId, query.id)));
  }
  const users = await userNodes(db, enterpriseId, query.id, query.offset, query.limit, now);
  nodes.push(...users.nodes);
  return { nodes, total: users.total };
}
