import { createContext, useContext } from 'react';

/** Things any signed-in screen may ask of the layout. */
export interface LayoutActions {
  openChangePassword: () => void;
}

export const LayoutActionsContext = createContext<LayoutActions>({ openChangePassword: () => undefined });

export function useLayoutActions(): LayoutActions {
  return useContext(LayoutActionsContext);
}
