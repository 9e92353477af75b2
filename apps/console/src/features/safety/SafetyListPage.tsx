import type { SafetySettingRow } from '@intercom/contract';
import { Form, Select } from 'antd';
import { useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRunAction } from '../../shared/api/useRunAction';
import { CreateDeleteToolbar } from '../../shared/list/CreateDeleteToolbar';
import { ListShell } from '../../shared/list/ListShell';
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
  const [selected, setSelected] = useState<Key[]>([]);

  const removeKeys = (ids: string[], title: string) =>
    confirm({
      title,
      content: t('safety.delete_content'),
      okText: t('common.delete'),
      danger: true,
      onOk: async () => {
        if (await run(() => remove.mutateAsync(ids)))
          setSelected((keys) => keys.filter((key) => !ids.includes(String(key))));
      },
    });

  const actions = useMemo(
    () => ({
      edit: (row: SafetySettingRow) => void navigate(`${SAFETY_LIST_PATH}/edit?key=${row.Key}`),
      remove: (row: SafetySettingRow) =>
        removeKeys([row.Key], t('safety.delete_title', { name: row.Name || `#${row.TargetID}` })),
    }),
    // removeKeys closes over the same hooks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [navigate, confirm, run, remove, t],
  );
  const columns = useSafetyColumns(actions);

  return (
    <>
      <SafetyInForce />
      <ListShell<SafetySettingRow, SafetyFilterValues>
        title={t('safety.title')}
        resource={safetyResource}
        columns={columns}
        filters={
          <Form.Item name="TargetKind" label={t('safety.applies_to')}>
            <Select
              allowClear
              placeholder={t('safety.all_kinds')}
              style={{ minWidth: 160 }}
              options={[
                { value: 'user', label: t('safety.kind_user') },
                { value: 'department', label: t('safety.kind_department') },
                { value: 'enterprise', label: t('safety.kind_enterprise') },
              ]}
            />
          </Form.Item>
        }
        toCondition={safetyCondition}
        toolbar={
          <CreateDeleteToolbar
            createLabel={t('safety.create')}
            onCreate={() => void navigate(`${SAFETY_LIST_PATH}/edit`)}
            deleteLabel={t('safety.delete_selected')}
            selectedCount={selected.length}
            onDeleteSelected={() =>
              removeKeys(selected.map(String), t('safety.delete_many_title', { count: selected.length }))
            }
          />
        }
        selection={{ keys: selected, onChange: (keys) => setSelected(keys) }}
        exportFormats={['csv', 'xlsx']}
        columnSettings={{ storageKey: 'safety', locked: ['TargetKind', 'actions'] }}
        testId="safety-list"
      />
    </>
  );
}
