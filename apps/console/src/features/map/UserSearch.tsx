import type { GpsRecord } from '@intercom/contract';
import { AutoComplete, Empty, Input, Typography } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';
import { UserStateTag } from './UserStateTag';
import { useUserStates } from './useUserStates';

/** Matches offered at once; a dispatcher narrows the text rather than scrolls. */
const MAX_RESULTS = 20;
const NO_POSITIONS: ReadonlyMap<number, GpsRecord> = new Map();

/**
 * Finds a user on the map by name or phone among the users the hub has a position of (those are
 * the ones the map can fly to). Arrow keys and Enter pick; nonsense says "no matches found".
 */
export function UserSearch({ onSelectUser }: { onSelectUser: (userId: number) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const deferred = useDeferredValue(text.trim().toLowerCase());
  const positions = useHubSnapshot((snapshot) => (deferred ? snapshot.positions : NO_POSITIONS));
  // The positions change in place: their version re-runs the search, only while there is a text.
  const version = useHubSnapshot((snapshot) => (deferred ? snapshot.positionsVersion : 0));
  const stateOf = useUserStates();

  const matches = useMemo(() => {
    if (!deferred) return [];
    const found = [];
    for (const record of positions.values()) {
      if (record.UserName.toLowerCase().includes(deferred) || record.Phone.includes(deferred)) found.push(record);
      if (found.length === MAX_RESULTS) break;
    }
    return found;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `version` says when `positions` changed in place
  }, [deferred, positions, version]);

  return (
    <AutoComplete
      value={text}
      onChange={setText}
      style={{ width: '100%' }}
      options={matches.map((record) => ({
        value: String(record.U_ID),
        label: (
          <span data-testid="map-search-result">
            <UserStateTag state={stateOf(record.U_ID)} compact /> {record.UserName}{' '}
            <Typography.Text type="secondary">{record.Phone}</Typography.Text>
          </span>
        ),
      }))}
      onSelect={(value: string) => {
        setText('');
        onSelectUser(Number(value));
      }}
      notFoundContent={
        deferred ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t('map.no_matches')}
            data-testid="map-search-empty"
          />
        ) : null
      }
    >
      <Input.Search allowClear placeholder={t('map.search')} aria-label={t('map.search')} />
    </AutoComplete>
  );
}
