import type { Ref } from 'react';
import { UserCard } from './UserCard';
import type { useMapSelection } from './useMapSelection';

/** The card of the selected user, over the map's lower left corner (the 2D and 3D pages alike). */
export function SelectedUserCard({
  selection,
  ref,
}: {
  selection: ReturnType<typeof useMapSelection>;
  /** The card's box, which the camera keeps the user beside (`LiveUsersMap`'s `cover`). */
  ref?: Ref<HTMLDivElement>;
}) {
  if (!selection.selected) return null;
  return (
    <div ref={ref} style={{ position: 'absolute', left: 12, bottom: 32, zIndex: 3 }}>
      <UserCard
        record={selection.selected.record}
        heartRate={selection.selected.heartRate}
        state={selection.selected.state}
        following={selection.follow}
        onFollow={selection.setFollow}
        onClose={selection.clear}
      />
    </div>
  );
}
