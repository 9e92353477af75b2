import { Limits } from '@intercom/contract';
import { useMediaQuery } from './useMediaQuery';

const query = `(max-width: ${Limits.mobileBreakpointPx - 0.02}px)`;

/** Below 992 px the layout is in mobile mode (SPEC.md section 2). */
export function useIsMobile(): boolean {
  return useMediaQuery(query);
}
