import type { UserType } from '@intercom/contract';
import { Select } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useUserTypes } from './pickerQueries';

/** A type's name; the built-in type 0 is named in the interface language. */
export function userTypeName(t: TFunction, types: UserType[] | undefined, id: number): string {
  if (id === 0) return t('users.type_default');
  return types?.find((type) => type.ID === id)?.Name ?? String(id);
}

/** Picks one of an enterprise's user types (GetMyType); 0 is the default type. */
export function UserTypeSelect({
  enterpriseId,
  value,
  onChange,
  id,
}: {
  enterpriseId: number | undefined;
  value?: number;
  onChange?: (value: number) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const types = useUserTypes(enterpriseId);
  return (
    <Select<number>
      id={id}
      value={value}
      onChange={onChange}
      loading={types.isFetching}
      options={(types.data ?? [{ ID: 0, Name: '', Option: '' }]).map((type) => ({
        value: type.ID,
        label: userTypeName(t, types.data, type.ID),
      }))}
    />
  );
}
