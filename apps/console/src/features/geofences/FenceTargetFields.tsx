import type { OrganRow, UserRow } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { Select, TreeSelect } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getList } from '../../shared/api/apiClient';
import { useDepartments } from '../../shared/pickers/pickerQueries';

interface MultiProps {
  enterpriseId: number | undefined;
  value?: number[];
  onChange?: (value: number[]) => void;
  id?: string;
}

/** The chosen users by id (a fence names ids only), so the picker shows their names. */
function useUsersByIds(ids: number[]) {
  return useQuery({
    enabled: ids.length > 0,
    queryKey: ['UserInfo', 'QueryData', { ids }],
    queryFn: async ({ signal }) =>
      (
        await getList<UserRow>('/api/UserInfo/QueryData', {
          query: { jsonCondition: JSON.stringify({ UserID: { in: ids.slice(0, 500) } }), pageIndex: 0, pageSize: 500 },
          signal,
        })
      ).rows,
    staleTime: 60_000,
  });
}

/** Users of one enterprise (undefined: the whole scope) matching the text (name, phone or ICCID), 20 at most. */
export function useUserSearch(text: string, enterpriseId: number | undefined) {
  const condition = { Search: text.trim() || undefined, E_ID: enterpriseId };
  return useQuery({
    queryKey: ['UserInfo', 'QueryData', { pick: condition }],
    queryFn: async ({ signal }) =>
      (
        await getList<UserRow>('/api/UserInfo/QueryData', {
          query: { jsonCondition: JSON.stringify(condition), pageIndex: 0, pageSize: 20 },
          signal,
        })
      ).rows,
    staleTime: 10_000,
  });
}

/** Users of one enterprise, found by name, phone or ICCID as one types; the value is their ids. */
export function FenceUsersSelect({ enterpriseId, value = [], onChange, id }: MultiProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const found = useUserSearch(useDeferredValue(text), enterpriseId);
  const chosen = useUsersByIds(value);
  const options = useMemo(() => {
    const byId = new Map<number, UserRow>();
    for (const user of [...(chosen.data ?? []), ...(found.data ?? [])]) byId.set(user.UserID, user);
    const label = (user: UserRow) => `${user.UserName} · ${user.MobilePhone}`;
    // A chosen id whose user is not (yet) read still shows, as its number.
    const known = [...byId.values()].map((user) => ({ value: user.UserID, label: label(user) }));
    const unknown = value.filter((uid) => !byId.has(uid)).map((uid) => ({ value: uid, label: `#${uid}` }));
    return [...known, ...unknown];
  }, [chosen.data, found.data, value]);
  return (
    <Select<number[]>
      id={id}
      mode="multiple"
      value={value}
      onChange={(next) => onChange?.(next)}
      allowClear
      showSearch={{ filterOption: false, onSearch: setText }}
      onBlur={() => setText('')}
      loading={found.isFetching || chosen.isFetching}
      placeholder={t('geofence.users_placeholder')}
      notFoundContent={found.isFetching ? t('common.loading') : t('list.no_match')}
      options={options}
      maxTagCount="responsive"
      style={{ width: '100%' }}
      data-testid="fence-users"
    />
  );
}

interface TreeOption {
  value: number;
  title: string;
  children: TreeOption[];
}

function departmentTree(rows: OrganRow[]): TreeOption[] {
  const byParent = new Map<number, OrganRow[]>();
  for (const row of rows) byParent.set(row.OSParentID, [...(byParent.get(row.OSParentID) ?? []), row]);
  const known = new Set(rows.map((r) => r.OSID));
  const build = (parent: number, depth: number): TreeOption[] =>
    (byParent.get(parent) ?? []).map((row) => ({
      value: row.OSID,
      title: row.OSName,
      children: depth < 64 ? build(row.OSID, depth + 1) : [],
    }));
  const orphans = [
    ...new Set(rows.filter((r) => r.OSParentID !== 0 && !known.has(r.OSParentID)).map((r) => r.OSParentID)),
  ];
  return [...build(0, 0), ...orphans.flatMap((parent) => build(parent, 0))];
}

/** Departments of one enterprise (each includes its sub-departments on the server); the value is their ids. */
export function FenceDepartmentsSelect({ enterpriseId, value = [], onChange, id }: MultiProps) {
  const { t } = useTranslation();
  const departments = useDepartments(enterpriseId);
  const treeData = useMemo(() => departmentTree(departments.data ?? []), [departments.data]);
  return (
    <TreeSelect<number[]>
      id={id}
      multiple
      value={value}
      onChange={(next) => onChange?.(next ?? [])}
      treeData={treeData}
      loading={departments.isFetching}
      allowClear
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
      placeholder={t('geofence.departments_placeholder')}
      maxTagCount="responsive"
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
      data-testid="fence-departments"
    />
  );
}
