import { AutoComplete, Empty, Input, Typography } from 'antd';
import { useDeferredValue, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FoundUser } from '../../shared/hub/hubWorkerMessages';
import { liveHub } from '../../shared/hub/liveHub';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';
import { UserStateTag } from './UserStateTag';
import { useUserStates } from './useUserStates';

/** Matches offered at once; a dispatcher narrows the text rather than scrolls. */
const MAX_RESULTS = 20;

/**
 * Finds a user on the map by name or phone among the users the hub has a position of (those are
 * the ones the map can fly to; the hub worker searches them). Arrow keys and Enter pick; nonsense
 * says "no matches found".
 */
export function UserSearch({ onSelectUser }: { onSelectUser: (userId: number) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const deferred = useDeferredValue(text.trim().toLowerCase());
  const [found, setFound] = useState<{ text: string; users: FoundUser[] }>({ text: '', users: [] });
  const stateOf = useUserStates();
  // How many users the map has: a user whose first fix comes while the text stands is found
  // without typing again (moves do not change it, so they search nothing).
  const usersOnMap = useHubSnapshot((snapshot) => snapshot.states.size);

  useEffect(() => {
    if (!deferred) return;
    let current = true;
    void liveHub.search(deferred, MAX_RESULTS).then((users) => {
      if (current) setFound({ text: deferred, users });
    });
    return () => {
      current = false;
    };
  }, [deferred, usersOnMap]);
  const matches = deferred && found.text === deferred ? found.users : [];
  const searched = deferred !== '' && found.text === deferred;

  return (
    <AutoComplete
      value={text}
      onChange={setText}
      style={{ width: '100%' }}
      options={matches.map((user) => ({
        value: String(user.U_ID),
        label: (
          <span data-testid="map-search-result">
            <UserStateTag state={stateOf(user.U_ID)} compact /> {user.UserName}{' '}
            <Typography.Text type="secondary">{user.Phone}</Typography.Text>
          </span>
        ),
      }))}
      onSelect={(value: string) => {
        setText('');
        onSelectUser(Number(value));
      }}
      notFoundContent={
        searched ? (
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
