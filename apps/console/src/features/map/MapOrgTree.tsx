import { ApartmentOutlined, BankOutlined, UserOutlined } from '@ant-design/icons';
import { OrgLevel, type OrgTreeNode } from '@intercom/contract';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Tree, type TreeDataNode } from 'antd';
import { useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../shared/ui/RetryAlert';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { OrgNodeTitle } from '../organ';
import { orgLevelQuery } from './api';
import { UserStateTag } from './UserStateTag';
import { useUserStates } from './useUserStates';
import { LoadingSkeleton } from '../../shared/ui/LoadingSkeleton';

interface MapOrgTreeProps {
  selectedUserId: number | undefined;
  onSelectUser: (userId: number) => void;
  height: number;
}

interface Parent {
  eid: number;
  id: number;
}

const keyOf = (node: OrgTreeNode) => node.aid;
const parentOf = (node: OrgTreeNode): Parent => ({
  eid: node.eid,
  id: node.level === OrgLevel.enterprise ? 0 : node.id,
});

function icon(node: OrgTreeNode) {
  if (node.level === OrgLevel.enterprise) return <BankOutlined />;
  return node.level === OrgLevel.user ? <UserOutlined /> : <ApartmentOutlined />;
}

/**
 * The organisation tree with its users, each user with its live state (online, offline, chatting,
 * SOS, stale GPS). A node's children load when it opens; picking a user selects it on the map.
 */
export function MapOrgTree({ selectedUserId, onSelectUser, height }: MapOrgTreeProps) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const stateOf = useUserStates();
  const root = useQuery(orgLevelQuery(undefined));
  const [opened, setOpened] = useState<Map<string, Parent>>(new Map());
  const [expanded, setExpanded] = useState<Key[] | undefined>(undefined);
  const openedList = [...opened];
  const levels = useQueries({ queries: openedList.map(([, parent]) => orgLevelQuery(parent)) });

  const rootNode = root.data?.rows[0];
  const treeData = useMemo(() => {
    if (!rootNode) return [];
    const childrenOf = new Map<string, OrgTreeNode[]>([[keyOf(rootNode), root.data?.rows.slice(1) ?? []]]);
    openedList.forEach(([key], i) => {
      const rows = levels[i]?.data?.rows;
      if (rows) childrenOf.set(key, rows);
    });
    const build = (node: OrgTreeNode, depth: number): TreeDataNode => {
      const key = keyOf(node);
      const kids = childrenOf.get(key);
      const user = node.level === OrgLevel.user;
      return {
        key,
        icon: icon(node),
        isLeaf: user || (kids ? kids.length === 0 : !node.isParent),
        title: user ? (
          <span style={{ whiteSpace: 'nowrap' }}>
            <UserStateTag state={stateOf(node.id)} compact /> {node.name}
          </span>
        ) : (
          <OrgNodeTitle name={node.name} userCount={node.userCount} />
        ),
        children: kids && depth < 64 ? kids.map((kid) => build(kid, depth + 1)) : undefined,
      };
    };
    return [build(rootNode, 0)];
    // openedList is derived from `opened`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rootNode, root.data, opened, levels, stateOf]);

  const nodes = useMemo(() => {
    const all = new Map<string, OrgTreeNode>();
    for (const node of root.data?.rows ?? []) all.set(keyOf(node), node);
    for (const level of levels) for (const node of level.data?.rows ?? []) all.set(keyOf(node), node);
    return all;
  }, [root.data, levels]);

  if (root.isPending) return <LoadingSkeleton rows={6} />;
  if (root.isError || !rootNode) {
    return (
      <RetryAlert
        title={root.isError ? t('common.query_error', { message: errorMessage(root.error) }) : t('list.load_failed')}
        onRetry={() => void root.refetch()}
      />
    );
  }
  const rootKey = keyOf(rootNode);
  return (
    <Tree
      showIcon
      blockNode
      height={height}
      treeData={treeData}
      expandedKeys={expanded ?? [rootKey]}
      onExpand={(keys) => setExpanded(keys)}
      loadedKeys={[rootKey, ...opened.keys()]}
      loadData={async (data) => {
        const node = nodes.get(String(data.key));
        if (!node || node.level === OrgLevel.user || opened.has(keyOf(node))) return;
        await queryClient.ensureQueryData(orgLevelQuery(parentOf(node)));
        setOpened((previous) => new Map(previous).set(keyOf(node), parentOf(node)));
      }}
      selectedKeys={selectedUserId !== undefined ? [`U${selectedUserId}`] : []}
      onSelect={(_keys, info) => {
        const node = nodes.get(String(info.node.key));
        if (node?.level === OrgLevel.user) onSelectUser(node.id);
      }}
      data-testid="map-org-tree"
    />
  );
}
