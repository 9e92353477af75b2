import { SelectFilter, TextFilter } from '../../shared/list/FilterFields';
import { useTranslation } from 'react-i18next';
import type { Condition } from '../../shared/list/listParams';
import { USER_STATE_LABELS, USER_STATES, type UserState } from './userState';

export interface UserFilterValues {
  Search?: string;
  State?: UserState;
}

/** Filter values -> jsonCondition: one text over name, phone and ICCID; the state. */
export function userCondition(values: UserFilterValues): Condition {
  return { Search: values.Search?.trim() || undefined, State: values.State || undefined };
}

export function UserFilters() {
  const { t } = useTranslation();
  return (
    <>
      <TextFilter name="Search" label={t('users.search')} placeholder={t('users.search_placeholder')} wide />
      <SelectFilter
        name="State"
        label={t('users.state')}
        placeholder={t('users.all_states')}
        options={USER_STATES.map((state) => ({ value: state, label: t(USER_STATE_LABELS[state]) }))}
      />
    </>
  );
}
