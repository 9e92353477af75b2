import type { SafetySettingRow } from '@intercom/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRunAction } from '../../shared/api/useRunAction';
import { SelectFilter } from '../../shared/list/FilterFields';
import { ListShell } from '../../shared/list/ListShell';
import { createAction, deleteSelectedAction } from '../../shared/list/ListToolbar';
import { useListSelection } from '../../shared/list/useListSelection';
import type { Condition } from '../../shared/list/listParams';
import { useConfirm } from '../../shared/ui/ConfirmContext';
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
  const confirm = useConfirm();
  const run = useRunAction();
  const remove = useDeleteSafety();
  const selection = useListSelection<SafetySettingRow>('Key');
  const { drop } = selection;
  const removeKeys = async (ids: string[]) => {
    if (await run(() => remove.mutateAsync(ids))) drop(ids);
  };
  const deleting = { content: t('safety.delete_content'), okText: t('common.delete') };

  const actions = useMemo(
    () => ({
      edit: (row: SafetySettingRow) => void navigate(`${SAFETY_LIST_PATH}/edit?key=${row.Key}`),
      remove: (row: SafetySettingRow) =>
        confirm({
          title: t('safety.delete_title', { name: row.Name || `#${row.TargetID}` }),
          ...deleting,
          danger: true,
          onOk: () => removeKeys([row.Key]),
        }),
    }),
    // removeKeys and deleting close over the same hooks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [navigate, confirm, run, remove, t, drop],
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
          deleteSelectedAction(
            t('safety.delete_selected'),
            count,
            { title: t('safety.delete_many_title', { count }), ...deleting },
            () => removeKeys(selection.keys.map(String)),
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
