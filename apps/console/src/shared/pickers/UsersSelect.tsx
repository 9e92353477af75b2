import type { UserRow } from '@intercom/contract';
import { Select } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserSearch, useUsersByIds } from './pickerQueries';
import type { TargetsSelectProps } from './TargetsSelectProps';

/**
 * Users of one enterprise, found by name, phone or ICCID as one types, the targets of a fence or a
 * safety setting; the value is their ids.
 */
export function UsersSelect({ enterpriseId, value = [], onChange, id }: TargetsSelectProps) {
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
