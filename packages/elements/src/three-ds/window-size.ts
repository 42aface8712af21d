/** An EMV 3-D Secure challenge window size. */
export interface ChallengeWindow {
  code: '01' | '02' | '03' | '04' | '05';
  /** Pixels, or undefined for 05 (full width). */
  width?: number | undefined;
  height?: number | undefined;
}

const sizes: ChallengeWindow[] = [
  { code: '04', width: 600, height: 400 },
  { code: '03', width: 500, height: 600 },
  { code: '02', width: 390, height: 400 },
];

/** Room the page keeps above and below the frame (the close control, the shop's own header). */
const VERTICAL_MARGIN = 120;

/**
 * The largest EMV window that fits the space there is, width and height; below 390 px wide (a phone) the
 * whole width (05) rather than the 250 px of 01, which cuts most banks' pages off.
 */
export function pickChallengeWindow(
  containerWidth: number,
  viewportHeight = Number.POSITIVE_INFINITY,
): ChallengeWindow {
  const room = viewportHeight - VERTICAL_MARGIN;
  return (
    sizes.find((size) => size.width! <= containerWidth && size.height! <= room) ?? { code: '05' }
  );
}
