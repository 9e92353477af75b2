import { ApartmentOutlined, BankOutlined, TeamOutlined } from '@ant-design/icons';
import { OrgLevel, type OrgTreeNode } from '@intercom/contract';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Tree, type TreeDataNode } from 'antd';
import { useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../shared/ui/RetryAlert';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { orgChildrenQuery } from './api';
import { OrgNodeTitle } from './OrgNodeTitle';
import styles from './OrgTree.module.css';
import { orgKeyOf, parentOfKey, type OrgSelection } from './orgTreeKeys';
import { LoadingSkeleton } from '../../shared/ui/LoadingSkeleton';

interface OrgTreeProps {
  selectedKey: string | undefined;
  onSelect: (selection: OrgSelection | undefined, key: string | undefined) => void;
}

interface Built extends TreeDataNode {
  key: string;
  selection: OrgSelection;
  children?: Built[];
}

function icon(node: OrgTreeNode) {
  if (node.level === OrgLevel.enterprise) return <BankOutlined />;
  return node.isParent ? <ApartmentOutlined /> : <TeamOutlined />;
}

/**
 * The organisation tree (enterprise, sub-enterprises, departments, each with its users' count).
 * A node's children load when it is opened, so it stays fast with 100,000 users; what was loaded
 * stays subscribed, so a change anywhere (a new department) shows after the cache is refreshed.
 */
export function OrgTree({ selectedKey, onSelect }: OrgTreeProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const root = useQuery(orgChildrenQuery(undefined));
  const rootNode = root.data?.[0];
  const rootKey = rootNode ? orgKeyOf(rootNode) : undefined;
  const [expandedKeys, setExpandedKeys] = useState<Key[] | undefined>(undefined);
  const [loadedKeys, setLoadedKeys] = useState<string[]>([]);
  const expanded = expandedKeys ?? (rootKey ? [rootKey] : []);

  const loaded = useQueries({
    queries: loadedKeys.map((key) => ({ ...orgChildrenQuery(parentOfKey(key)), meta: { errorToast: false } })),
  });
  // A node that is gone (a deleted department) answers 4004: forget it.
  const gone = loadedKeys.filter((_key, i) => loaded[i]?.isError);
  if (gone.length > 0) setLoadedKeys((keys) => keys.filter((key) => !gone.includes(key)));

  const treeData = useMemo(() => {
    if (!rootNode) return [];
    const childrenOf = new Map<string, OrgTreeNode[]>();
    childrenOf.set(orgKeyOf(rootNode), root.data?.slice(1) ?? []);
    loadedKeys.forEach((key, i) => {
      const data = loaded[i]?.data;
      if (data) childrenOf.set(key, data);
    });
    const build = (node: OrgTreeNode, parentId: number, isRoot: boolean, depth: number): Built => {
      const key = orgKeyOf(node);
      const kids = childrenOf.get(key);
      return {
        key,
        icon: icon(node),
        title: <OrgNodeTitle name={node.name} userCount={node.userCount} />,
        // Opened and empty (a department with users but no sub-departments): no arrow any more.
        isLeaf: kids ? kids.length === 0 : !node.isParent,
        selection: {
          level: node.level === OrgLevel.enterprise ? 0 : 1,
          eid: node.eid,
          id: node.level === OrgLevel.enterprise ? 0 : node.id,
          name: node.name,
          root: isRoot,
          parentId,
        },
        // A cycle in bad data must not hang the page.
        children:
          kids && depth < 64
            ? kids.map((kid) => build(kid, node.level === 1 ? node.id : 0, false, depth + 1))
            : undefined,
      };
    };
    return [build(rootNode, 0, true, 0)];
  }, [rootNode, root.data, loadedKeys, loaded]);

  if (root.isPending) return <LoadingSkeleton rows={5} />;
  if (root.isError || !rootNode) {
    return (
      <RetryAlert
        title={root.isError ? errorMessage(root.error) : t('list.load_failed')}
        onRetry={() => void root.refetch()}
      />
    );
  }

  return (
    <Tree<Built>
      className={styles.tree}
      showIcon
      blockNode
      treeData={treeData}
      expandedKeys={expanded}
      onExpand={(keys) => setExpandedKeys(keys)}
      loadedKeys={[...(rootKey ? [rootKey] : []), ...loadedKeys]}
      loadData={async (node) => {
        const key = String(node.key);
        await queryClient.ensureQueryData(orgChildrenQuery(parentOfKey(key)));
        setLoadedKeys((keys) => (keys.includes(key) ? keys : [...keys, key]));
      }}
      selectedKeys={selectedKey ? [selectedKey] : []}
      onSelect={(_keys, info) => {
        const picked = info.selected ? info.node : undefined;
        onSelect(picked?.selection, picked?.key);
      }}
      data-testid="org-tree"
    />
  );
}
