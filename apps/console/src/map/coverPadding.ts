import type { PaddingOptions } from 'maplibre-gl';

export const NO_PADDING: PaddingOptions = { top: 0, bottom: 0, left: 0, right: 0 };

/** A panel fixed to the viewport's right side (its width) or bottom (its height). */
export interface ViewportCover {
  side: 'right' | 'bottom';
  size: number;
}

/**
 * The part of the map's element (`map`, viewport pixels) a panel covers, as the map's padding:
 * what the camera centres and fits keeps out of it. Nothing when the panel does not reach the map.
 */
export function coverPadding(
  map: { right: number; bottom: number },
  cover: ViewportCover,
  viewport: { width: number; height: number },
): PaddingOptions {
  if (cover.side === 'right') return { ...NO_PADDING, right: Math.max(0, map.right - (viewport.width - cover.size)) };
  return { ...NO_PADDING, bottom: Math.max(0, map.bottom - (viewport.height - cover.size)) };
}
