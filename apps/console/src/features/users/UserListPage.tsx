import { EditOutlined, ImportOutlined, SafetyCertificateOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import type { UserRow } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../shared/session/SessionContext';
import { useRunAction } from '../../shared/api/useRunAction';
import { ListShell } from '../../shared/list/ListShell';
import { createAction, type ListAction } from '../../shared/list/ListToolbar';
import { useListSelection } from '../../shared/list/useListSelection';
import type { Condition } from '../../shared/list/listParams';
import { useConfirm } from '../../shared/ui/ConfirmContext';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { DepartmentPanel, orgChildrenQuery, type OrgSelection } from '../organ';
import { UserChannelsDialog } from '../channels';
import { userResource, useFreezeUser } from './api';
import { BatchChangeDialog } from './BatchChangeDialog';
import { UserCapsDialog } from './UserCapsDialog';
import { UserDrawer, type UserTarget } from './UserDrawer';
import { UserFilters, userCondition, type UserFilterValues } from './UserFilters';
import { UserImportWizard } from './import/UserImportWizard';
import { UserLocationDialog } from './UserLocationDialog';
import { useUserColumns } from './useUserColumns';

/** The tree's pick as a list filter: a department with its sub-departments, or one sub-enterprise. */
function orgCondition(selection: OrgSelection | undefined): Condition {
  if (!selection || selection.root) return {};
  return selection.level === 1 ? { OSUnder: selection.id } : { E_ID: selection.eid };
}

/** /Managent/User: departments on the left, the users of the picked one on the right. */
export default function UserListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const { info } = useSession();
  const confirm = useConfirm();
  const run = useRunAction();
  const freeze = useFreezeUser();
  const rootNode = useQuery(orgChildrenQuery(undefined)).data?.[0];
  const [org, setOrg] = useState<{ selection: OrgSelection | undefined; key: string | undefined }>({
    selection: undefined,
    key: undefined,
  });
  // Another working enterprise (top bar): the picked department and the ticked users belong to the old one.
  const [rootEid, setRootEid] = useState(rootNode?.eid);
  if (rootNode && rootNode.eid !== rootEid) {
    setRootEid(rootNode.eid);
    setOrg({ selection: undefined, key: undefined });
  }
  const selected = useListSelection<UserRow>('UserID', rootEid);
  const [editing, setEditing] = useState<UserTarget | null>(null);
  const [capsUser, setCapsUser] = useState<UserRow | null>(null);
  const [locationUser, setLocationUser] = useState<UserRow | null>(null);
  const [channelsUser, setChannelsUser] = useState<UserRow | null>(null);
  const [changing, setChanging] = useState(false);
  const [importing, setImporting] = useState(false);

  const actions = useMemo(
    () => ({
      edit: (user: UserRow) => setEditing({ mode: 'edit', id: user.UserID }),
      caps: setCapsUser,
      location: setLocationUser,
      channels: setChannelsUser,
      freeze: (user: UserRow) => {
        const lock = !user.IsLock;
        confirm({
          title: lock
            ? t('users.freeze_title', { name: user.UserName })
            : t('users.unfreeze_title', { name: user.UserName }),
          content: lock ? t('users.freeze_content') : t('users.unfreeze_content'),
          okText: lock ? t('users.freeze') : t('users.unfreeze'),
          danger: lock,
          onOk: () => run(() => freeze.mutateAsync({ MobilePhone: user.MobilePhone, isLock: lock })),
        });
      },
    }),
    [confirm, freeze, run, t],
  );
  const columns = useUserColumns(actions);
  const enterpriseId = org.selection?.eid ?? rootNode?.eid;

  const toolbar: ListAction[] = [
    createAction(
      t('users.create'),
      () =>
        enterpriseId !== undefined &&
        setEditing({
          mode: 'create',
          eid: enterpriseId,
          departmentId: org.selection?.level === 1 ? org.selection.id : undefined,
        }),
      enterpriseId === undefined,
    ),
    {
      key: 'batch',
      label: t('batch.title'),
      icon: <UsergroupAddOutlined />,
      onClick: () => void navigate('/Managent/BatchUser'),
    },
    {
      key: 'import',
      label: t('userImport.open'),
      icon: <ImportOutlined />,
      testId: 'user-import-open',
      onClick: () => setImporting(true),
    },
    {
      key: 'change',
      label: t('users.batch_change'),
      icon: <EditOutlined />,
      selected: selected.keys.length,
      onClick: () => setChanging(true),
    },
  ];

  return (
    <Flex gap={16} vertical={mobile} align="stretch">
      <div style={{ width: mobile ? '100%' : 250, flexShrink: 0 }}>
        <DepartmentPanel
          selected={org.selection}
          selectedKey={org.key}
          onSelect={(selection, key) => setOrg({ selection, key })}
          treeHeight={mobile ? 220 : 'calc(100vh - 170px)'}
        />
      </div>
      <div style={{ flex: 1, minWidth: 0 }}>
        <ListShell<UserRow, UserFilterValues>
          title={
            org.selection && !org.selection.root ? `${t('route.users')} · ${org.selection.name}` : t('route.users')
          }
          extra={
            info.IsAdmin ? (
              <Button
                type="link"
                icon={<SafetyCertificateOutlined />}
                onClick={() => void navigate('/Managent/Account')}
              >
                {t('route.accounts')}
              </Button>
            ) : undefined
          }
          resource={userResource}
          columns={columns}
          filters={<UserFilters />}
          toCondition={userCondition}
          fixedCondition={orgCondition(org.selection)}
          actions={toolbar}
          exportFormats={['csv', 'xlsx']}
          selection={selected}
          columnSettings={{
            storageKey: 'users',
            defaultHidden: ['UType', 'Caps', 'GPSConfig', 'Remark', 'CreatedAt'],
            locked: ['UserName', 'actions'],
          }}
          testId="user-list"
        />
      </div>
      <UserDrawer target={editing} onClose={() => setEditing(null)} />
      <UserCapsDialog user={capsUser} onClose={() => setCapsUser(null)} />
      <UserLocationDialog user={locationUser} onClose={() => setLocationUser(null)} />
      <UserChannelsDialog user={channelsUser} onClose={() => setChannelsUser(null)} />
      <UserImportWizard open={importing} onClose={() => setImporting(false)} />
      <BatchChangeDialog
        open={changing}
        userIds={selected.keys.map(Number)}
        enterpriseId={enterpriseId}
        onClose={(changed) => {
          setChanging(false);
          if (changed) selected.clear();
        }}
      />
    </Flex>
  );
}
