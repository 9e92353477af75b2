import type { UserRow } from '@intercom/contract';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUser, useUserSearch } from './pickerQueries';
import { SearchPicker, type PickerField } from './SearchPicker';

/** Finds a user (of one enterprise, if given) by name, phone or ICCID as one types; the value is the UserID. */
export function UserPicker({ enterpriseId, ...field }: PickerField & { enterpriseId?: number }) {
  const { value } = field;
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
    <SearchPicker
      {...field}
      onSearch={setText}
      loading={users.isFetching}
      placeholder={t('users.pick_placeholder')}
      options={rows.map((user) => ({
        value: user.UserID,
        label: `${user.UserName} · ${user.MobilePhone}${user.ICCID ? ` · ${user.ICCID}` : ''}`,
      }))}
    />
  );
}
