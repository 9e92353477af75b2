import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Tooltip } from 'antd';
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
          <Tooltip title={base ? t('organ.create_under', { name: base.name }) : t('organ.create')}>
            <Button
              type="text"
              size="small"
              icon={<PlusOutlined />}
              disabled={!base}
              onClick={create}
              aria-label={t('organ.create')}
              data-testid="department-create"
            />
          </Tooltip>
          <Tooltip title={department ? t('organ.edit') : t('organ.pick_department')}>
            <Button
              type="text"
              size="small"
              icon={<EditOutlined />}
              disabled={!department}
              onClick={() => department && setTarget({ mode: 'edit', eid: department.eid, id: department.id })}
              aria-label={t('organ.edit')}
              data-testid="department-edit"
            />
          </Tooltip>
          <Tooltip title={department ? t('organ.delete') : t('organ.pick_department')}>
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={!department}
              onClick={askDelete}
              aria-label={t('organ.delete')}
              data-testid="department-delete"
            />
          </Tooltip>
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
