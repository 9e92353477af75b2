import { StorageKeys } from '@intercom/contract';
import { useCallback, useState } from 'react';
import { readPreference, writePreference } from '../../shared/storage/localPreference';

/** Whether the desktop sidebar is open; stored as `sidebarStatus` '1' (open) or '0' (collapsed). */
export function useSidebarState(): [opened: boolean, toggle: () => void] {
  const [opened, setOpened] = useState(() => readPreference(StorageKeys.sidebarStatus) !== '0');
  const toggle = useCallback(() => {
    setOpened((previous) => {
      writePreference(StorageKeys.sidebarStatus, previous ? '0' : '1');
      return !previous;
    });
  }, []);
  return [opened, toggle];
}
