/** The least free strip (px) beside or above a cover that the camera's target may be shown in. */
export const MIN_FREE_PX = 80;

/** The part of a rectangle on screen this needs (a `DOMRect` has it). */
export interface ScreenRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * How far (px, `[x, y]`) to move the camera's target from the map's centre so that it shows in the
 * middle of the map's free part, beside `cover` (a card over the map) rather than under it: to the
 * right of the cover when that strip is wide enough, else above it, else not at all.
 */
export function offsetBeside(map: ScreenRect, cover: ScreenRect | undefined): [number, number] {
  if (!cover || cover.right <= cover.left || cover.bottom <= cover.top) return [0, 0];
  const centreX = (map.left + map.right) / 2;
  const centreY = (map.top + map.bottom) / 2;
  if (map.right - cover.right >= MIN_FREE_PX) return [(Math.max(cover.right, map.left) + map.right) / 2 - centreX, 0];
  if (cover.top - map.top >= MIN_FREE_PX) return [0, (map.top + Math.min(cover.top, map.bottom)) / 2 - centreY];
  return [0, 0];
}
