import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Tooltip, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRunAction } from '../../shared/api/useRunAction';
import { useConfirm } from '../../shared/ui/ConfirmContext';
import { orgChildrenQuery, useDeleteOrgan } from './api';
import { DepartmentDrawer, type DepartmentTarget } from './DepartmentDrawer';
import { OrgTree } from './OrgTree';
import type { OrgSelection } from './orgTreeKeys';

interface DepartmentPanelProps {
  selected: OrgSelection | undefined;
  selectedKey: string | undefined;
  onSelect: (selection: OrgSelection | undefined, key: string | undefined) => void;
  /** Height of the tree's scroll area. */
  treeHeight: number | string;
}

/** An icon button of the panel's header; its tooltip says what it does, or why it is off. */
function HeaderAction({
  tip,
  label,
  testId,
  ...button
}: Pick<ButtonProps, 'icon' | 'danger' | 'disabled' | 'onClick'> & { tip: string; label: string; testId: string }) {
  return (
    <Tooltip title={tip}>
      <Button type="text" size="small" {...button} aria-label={label} data-testid={testId} />
    </Tooltip>
  );
}

/**
 * The department filter of the user list, with the department actions: a new department under
 * the picked node, and edit or delete of the picked department.
 */
export function DepartmentPanel({ selected, selectedKey, onSelect, treeHeight }: DepartmentPanelProps) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const run = useRunAction();
  const remove = useDeleteOrgan();
  const [target, setTarget] = useState<DepartmentTarget | null>(null);
  const department = selected?.level === 1 ? selected : undefined;
  // Nothing picked: a new department goes directly under the working enterprise.
  const rootNode = useQuery(orgChildrenQuery(undefined)).data?.[0];
  const base =
    selected ?? (rootNode ? { eid: rootNode.eid, level: 0 as const, id: 0, name: rootNode.name } : undefined);

  const create = () => {
    if (!base) return;
    setTarget({ mode: 'create', eid: base.eid, parentId: base.level === 1 ? base.id : 0 });
  };
  const askDelete = () => {
    if (!department) return;
    confirm({
      title: t('organ.delete_title', { name: department.name }),
      content: t('organ.delete_content'),
      okText: t('common.delete'),
      danger: true,
      onOk: async () => {
        const deleted = await run(() => remove.mutateAsync(department.id));
        if (deleted) onSelect(undefined, undefined);
      },
    });
  };

  return (
    <Card
      size="small"
      title={t('organ.title')}
      styles={{ body: { padding: 8 } }}
      extra={
        <Flex gap={2}>
          <HeaderAction
            tip={base ? t('organ.create_under', { name: base.name }) : t('organ.create')}
            label={t('organ.create')}
            icon={<PlusOutlined />}
            disabled={!base}
            onClick={create}
            testId="department-create"
          />
          <HeaderAction
            tip={department ? t('organ.edit') : t('organ.pick_department')}
            label={t('organ.edit')}
            icon={<EditOutlined />}
            disabled={!department}
            onClick={() => department && setTarget({ mode: 'edit', eid: department.eid, id: department.id })}
            testId="department-edit"
          />
          <HeaderAction
            tip={department ? t('organ.delete') : t('organ.pick_department')}
            label={t('organ.delete')}
            icon={<DeleteOutlined />}
            danger
            disabled={!department}
            onClick={askDelete}
            testId="department-delete"
          />
        </Flex>
      }
    >
      <div style={{ maxHeight: treeHeight, overflow: 'auto' }}>
        <OrgTree selectedKey={selectedKey} onSelect={onSelect} />
      </div>
      <DepartmentDrawer target={target} onClose={() => setTarget(null)} />
    </Card>
  );
}
