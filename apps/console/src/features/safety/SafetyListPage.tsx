import type { SafetySettingRow } from '@intercom/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SelectFilter } from '../../shared/list/FilterFields';
import { ListShell } from '../../shared/list/ListShell';
import { createAction } from '../../shared/list/ListToolbar';
import { useListSelection } from '../../shared/list/useListSelection';
import { useRowDeletion } from '../../shared/list/useRowDeletion';
import type { Condition } from '../../shared/list/listParams';
import { safetyResource, useDeleteSafety } from './api';
import { SAFETY_LIST_PATH } from './paths';
import { SafetyInForce } from './SafetyInForce';
import { useSafetyColumns } from './useSafetyColumns';

interface SafetyFilterValues {
  TargetKind?: string;
}

const safetyCondition = (values: SafetyFilterValues): Condition => ({ TargetKind: values.TargetKind });

/** /main/safety: the stored lone-worker settings of the scope; look up what is in force for a user. */
export default function SafetyListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const selection = useListSelection<SafetySettingRow>('Key');
  const deletion = useRowDeletion(useDeleteSafety().mutateAsync, selection.drop, t('safety.delete_content'));

  const actions = useMemo(
    () => ({
      edit: (row: SafetySettingRow) => void navigate(`${SAFETY_LIST_PATH}/edit?key=${row.Key}`),
      remove: (row: SafetySettingRow) =>
        deletion.askOne(t('safety.delete_title', { name: row.Name || `#${row.TargetID}` }), row.Key),
    }),
    [navigate, deletion, t],
  );
  const columns = useSafetyColumns(actions);
  const count = selection.keys.length;

  return (
    <>
      <SafetyInForce />
      <ListShell<SafetySettingRow, SafetyFilterValues>
        title={t('safety.title')}
        resource={safetyResource}
        columns={columns}
        filters={
          <SelectFilter
            name="TargetKind"
            label={t('safety.applies_to')}
            placeholder={t('safety.all_kinds')}
            minWidth={160}
            options={[
              { value: 'user', label: t('safety.kind_user') },
              { value: 'department', label: t('safety.kind_department') },
              { value: 'enterprise', label: t('safety.kind_enterprise') },
            ]}
          />
        }
        toCondition={safetyCondition}
        actions={[
          createAction(t('safety.create'), () => void navigate(`${SAFETY_LIST_PATH}/edit`)),
          deletion.selectedAction(
            t('safety.delete_selected'),
            t('safety.delete_many_title', { count }),
            selection.keys.map(String),
          ),
        ]}
        selection={selection}
        exportFormats={['csv', 'xlsx']}
        columnSettings={{ storageKey: 'safety', locked: ['TargetKind', 'actions'] }}
        testId="safety-list"
      />
    </>
  );
}
