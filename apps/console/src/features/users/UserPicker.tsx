import { Select } from 'antd';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '@intercom/contract';
import { useUser, useUserSearch } from './api';

/** Finds a user (of one enterprise, if given) by name, phone or ICCID as one types; the value is the UserID. */
export function UserPicker({
  value,
  onChange,
  enterpriseId,
  id,
}: {
  value?: number;
  onChange?: (value: number | undefined) => void;
  enterpriseId?: number;
  id?: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const deferred = useDeferredValue(text);
  const users = useUserSearch(deferred, enterpriseId);
  const found = users.data ?? [];
  // A user given from outside (a link) may not be among the matches: fetched, so it shows by name.
  const picked = useUser(value !== undefined && !found.some((u) => u.UserID === value) ? value : undefined);
  const rows: UserRow[] =
    picked.data && !found.some((u) => u.UserID === picked.data.UserID) ? [picked.data, ...found] : found;
  return (
    <Select<number>
      id={id}
      value={value}
      onChange={(next) => onChange?.(next)}
      allowClear
      showSearch={{ filterOption: false, onSearch: setText }}
      loading={users.isFetching}
      placeholder={t('users.pick_placeholder')}
      notFoundContent={users.isFetching ? t('common.loading') : t('list.no_match')}
      options={rows.map((user) => ({
        value: user.UserID,
        label: `${user.UserName} · ${user.MobilePhone}${user.ICCID ? ` · ${user.ICCID}` : ''}`,
      }))}
      style={{ width: '100%' }}
    />
  );
}
