import { useMediaQuery } from '../shared/ui/useMediaQuery';

/** The main pointer is a finger: the drawing hints say tap, not click and double-click. */
export function useTouchScreen(): boolean {
  return useMediaQuery('(pointer: coarse)');
}
