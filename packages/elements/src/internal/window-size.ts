/** An EMV 3-D Secure challenge window size. */
export interface ChallengeWindow {
  code: '01' | '02' | '03' | '04' | '05';
  /** Pixels, or undefined for 05 (full width). */
  width?: number;
  height?: number;
}

const sizes: ChallengeWindow[] = [
  { code: '04', width: 600, height: 400 },
  { code: '03', width: 500, height: 600 },
  { code: '02', width: 390, height: 400 },
  { code: '01', width: 250, height: 400 },
];

/** The largest EMV window that fits the container, full width (05) below 250 px. */
export function pickChallengeWindow(containerWidth: number): ChallengeWindow {
  return sizes.find((size) => (size.width ?? 0) <= containerWidth) ?? { code: '05' };
}
