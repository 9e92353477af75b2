import { Menu, type MenuProps } from 'antd';
import { createElement, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '../../shared/session/SessionContext';
import { findRoute } from '../routing/findRoute';
import { menuSelection, menuTree, type MenuNode } from '../routing/menuTree';

type Items = NonNullable<MenuProps['items']>;

/** The sidebar menu, built from the session's routes. */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { routes } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const match = findRoute(routes, pathname);
  // A hidden page lights up the entry it belongs to (its activeMenu) and that entry's group.
  const active = (match?.route.activeMenu && findRoute(routes, match.route.activeMenu)) || match;
  const selection = menuSelection(active?.route, active?.parents ?? []);
  const [openKeys, setOpenKeys] = useState<string[]>(selection.open);
  const [lastPath, setLastPath] = useState(pathname);
  // Opening a route of another group opens that group too (the user's own choices stay otherwise).
  if (lastPath !== pathname) {
    setLastPath(pathname);
    const missing = selection.open.filter((key) => !openKeys.includes(key));
    if (missing.length > 0) setOpenKeys([...openKeys, ...missing]);
  }

  const items = useMemo(() => {
    const toItem = (node: MenuNode): Items[number] => ({
      key: node.key,
      icon: node.icon ? createElement(node.icon) : undefined,
      label: t(node.title),
      ...(node.children ? { children: node.children.map(toItem) } : {}),
    });
    return menuTree(routes).map(toItem);
  }, [routes, t]);

  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={selection.selected}
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      onClick={({ key }) => void navigate(key)}
      style={{ borderInlineEnd: 'none' }}
    />
  );
}
