import { useMediaQuery } from './useMediaQuery';

/** The system asks for less motion (an accessibility setting): dialogs, menus and toasts then appear at once. */
export function usePrefersReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}
