import { createContext, useContext } from 'react';

/** Things any signed-in screen may ask of the layout. */
export interface LayoutActions {
  openChangePassword: () => void;
  /** Shows the talk panel (docked, or a drawer on a phone). */
  openTalk: () => void;
}

export const LayoutActionsContext = createContext<LayoutActions>({
  openChangePassword: () => undefined,
  openTalk: () => undefined,
});

export function useLayoutActions(): LayoutActions {
  return useContext(LayoutActionsContext);
}
