import { StorageKeys } from '@intercom/contract';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { readPreference, writePreference } from '../shared/storage/localPreference';

/** antd component sizes offered in the top bar (antd 6 calls the middle one `medium`). */
export const COMPONENT_SIZES = ['small', 'medium', 'large'] as const;
export type ComponentSize = (typeof COMPONENT_SIZES)[number];

function storedSize(): ComponentSize {
  const value = readPreference(StorageKeys.size);
  if (value === 'middle' || value === 'default') return 'medium';
  return (COMPONENT_SIZES as readonly string[]).includes(value ?? '') ? (value as ComponentSize) : 'medium';
}

interface Preferences {
  size: ComponentSize;
  setSize: (size: ComponentSize) => void;
}

const PreferencesContext = createContext<Preferences | null>(null);

export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [size, setSizeState] = useState<ComponentSize>(storedSize);
  const setSize = useCallback((next: ComponentSize) => {
    writePreference(StorageKeys.size, next);
    setSizeState(next);
  }, []);
  const value = useMemo(() => ({ size, setSize }), [size, setSize]);
  return <PreferencesContext value={value}>{children}</PreferencesContext>;
}

export function usePreferences(): Preferences {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error('usePreferences outside PreferencesProvider');
  return value;
}
