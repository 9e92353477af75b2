import { Form, Input, Select } from 'antd';
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
      <Form.Item name="Search" label={t('users.search')}>
        <Input allowClear maxLength={64} placeholder={t('users.search_placeholder')} className="wide-filter" />
      </Form.Item>
      <Form.Item name="State" label={t('users.state')}>
        <Select
          allowClear
          placeholder={t('users.all_states')}
          options={USER_STATES.map((state) => ({ value: state, label: t(USER_STATE_LABELS[state]) }))}
        />
      </Form.Item>
    </>
  );
}
