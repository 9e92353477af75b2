// The hub worker computes the states (shared/hub/recordState.ts); features/map still imports this from here.
export { recordState } from '../shared/hub/recordState';
