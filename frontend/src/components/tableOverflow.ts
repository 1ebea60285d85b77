/** Which sides of a sideways-scrolling box hide content. */
export interface Overflow {
  left: boolean;
  right: boolean;
}

/** From the box's scroll position and sizes; a pixel of rounding is no overflow. */
export function overflowOf(scrollLeft: number, clientWidth: number, scrollWidth: number): Overflow {
  return { left: scrollLeft > 1, right: scrollLeft + clientWidth < scrollWidth - 1 };
}

/**
 * The `left` offsets (px) of the first sticky columns from their measured widths: each stays
 * right of the ones before it.
 */
export function stickyOffsets(widths: readonly number[]): number[] {
  const out: number[] = [];
  let left = 0;
  for (const w of widths) {
    out.push(left);
    left += w;
  }
  return out;
}
