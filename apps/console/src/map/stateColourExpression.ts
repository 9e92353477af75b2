import type { ExpressionSpecification } from 'maplibre-gl';
import { USER_MAP_STATES } from '../shared/hub/userMapState';
import { USER_STATE_COLOURS } from './userStateColours';

/** A paint expression colouring a feature by its `state` property. */
export function stateColourExpression(): ExpressionSpecification {
  const pairs = USER_MAP_STATES.flatMap((state) => [state, USER_STATE_COLOURS[state]]);
  return ['match', ['get', 'state'], ...pairs, USER_STATE_COLOURS.offline] as unknown as ExpressionSpecification;
}
