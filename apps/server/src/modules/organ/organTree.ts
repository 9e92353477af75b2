import { OrgLevel, type OrgTreeNode, type orgTreeQuerySchema } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/AppError.js';
import { inScope, type Scope } from '../../tenancy/scope.js';
import { childrenMap, organsOf } from './organRepository.js';

type TreeQuery = z.infer<typeof orgTreeQuerySchema>;

/** Users per enterprise and department (department 0 = none), from one grouped scan of the index. */
type UserCounts = Map<number, Map<number, number>>;

async function userCounts(db: Kysely<DB>, enterpriseIds: readonly number[], onlyOrgan?: number): Promise<UserCounts> {
  let query = db
    .selectFrom('terminal_user')
    .select((eb) => ['E_ID', 'OS_ID', eb.fn.countAll<number>().as('n')])
    .where('E_ID', 'in', [...enterpriseIds]);
  if (onlyOrgan !== undefined) {
    query = query.where((eb) => (onlyOrgan === 0 ? eb('OS_ID', 'is', null) : eb('OS_ID', '=', onlyOrgan)));
  }
  const rows = await query.groupBy(['E_ID', 'OS_ID']).execute();
  const counts: UserCounts = new Map();
  for (const row of rows) {
    const perOrgan = counts.get(row.E_ID) ?? new Map<number, number>();
    perOrgan.set(row.OS_ID ?? 0, Number(row.n));
    counts.set(row.E_ID, perOrgan);
  }
  return counts;
}

/** Sums `direct` over each node's subtree (memoised; trees are small). */
function subtreeSums(direct: (id: number) => number, children: Map<number, number[]>): (id: number) => number {
  const memo = new Map<number, number>();
  const sum = (id: number): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const total = direct(id) + (children.get(id) ?? []).reduce((acc, child) => acc + sum(child), 0);
    memo.set(id, total);
    return total;
  };
  return sum;
}

function sumOf(values: Iterable<number> | undefined): number {
  let total = 0;
  for (const v of values ?? []) total += v;
  return total;
}

/** The enterprise's own node (first load) and its sub-enterprises, with their subtree's users. */
async function enterpriseNodes(
  db: Kysely<DB>,
  scope: Scope,
  enterpriseId: number,
  withSelf: boolean,
  counts: UserCounts,
) {
  const rows = await db
    .selectFrom('enterprise')
    .select(['E_ID', 'E_Name', 'P_ID'])
    .where('E_ID', 'in', [...scope.enterpriseIds])
    .orderBy('E_ID')
    .execute();
  const children = new Map<number, number[]>();
  for (const row of rows) {
    if (row.P_ID === null || !inScope(scope, row.P_ID)) continue;
    const siblings = children.get(row.P_ID);
    if (siblings) siblings.push(row.E_ID);
    else children.set(row.P_ID, [row.E_ID]);
  }
  const users = subtreeSums((id) => sumOf(counts.get(id)?.values()), children);
  const shown = rows.filter((e) => (withSelf && e.E_ID === enterpriseId) || e.P_ID === enterpriseId);
  return shown.map((e): OrgTreeNode => ({
    id: e.E_ID,
    pId: e.P_ID ?? 0,
    aid: `E${e.E_ID}`,
    name: e.E_Name,
    eid: e.E_ID,
    level: OrgLevel.enterprise,
    class: 'enterprise',
    userCount: users(e.E_ID),
    icon: 'enterprise',
    isParent: true,
  }));
}

/** Department nodes under `parentId` (0 = the enterprise) with the users of each department's subtree. */
async function departmentNodes(db: Kysely<DB>, enterpriseId: number, parentId: number, counts: UserCounts) {
  const organs = await organsOf(db, enterpriseId);
  const children = childrenMap(organs);
  const perOrgan = counts.get(enterpriseId);
  const users = subtreeSums((id) => perOrgan?.get(id) ?? 0, children);
  return organs
    .filter((o) => o.OSParentID === parentId)
    .map((o): OrgTreeNode => {
      const userCount = users(o.OSID);
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
  page: { offset: number; limit: number },
  now: number,
) {
  const rows = await db
    .selectFrom('terminal_user')
    .select(['UserID', 'UserName', 'MobilePhone', 'OS_ID', 'IsLock', 'ExpireAt'])
    .where('E_ID', '=', enterpriseId)
    .where((eb) => (organId === 0 ? eb('OS_ID', 'is', null) : eb('OS_ID', '=', organId)))
    .orderBy('UserID')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((u): OrgTreeNode => ({
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
}

/**
 * `GET /api/Organ/GetOrganizeList`: the children of one node, loaded on demand so the tree stays
 * fast with 100,000 users. Data: (first load only) the enterprise's own node; then, on offset 0,
 * its sub-enterprises and departments; then one page of the users directly under the node.
 * Total: the users directly under the node, for paging with offset. Every count comes from one
 * grouped scan of the (E_ID, OS_ID) index.
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
  if (query.offset > 0) {
    const nodes = await userNodes(db, enterpriseId, query.id, query, now);
    const direct = await userCounts(db, [enterpriseId], query.id);
    return { nodes, total: direct.get(enterpriseId)?.get(query.id) ?? 0 };
  }
  // Sub-enterprise totals need the whole scope; a department level needs its enterprise only.
  const counts = await userCounts(db, query.id === 0 ? scope.enterpriseIds : [enterpriseId]);
  const nodes: OrgTreeNode[] = [];
  if (query.id === 0) nodes.push(...(await enterpriseNodes(db, scope, enterpriseId, firstLoad, counts)));
  nodes.push(...(await departmentNodes(db, enterpriseId, query.id, counts)));
  nodes.push(...(await userNodes(db, enterpriseId, query.id, query, now)));
  return { nodes, total: counts.get(enterpriseId)?.get(query.id) ?? 0 };
}
