import { threeDSStyles } from '../../internal/three-ds.styles.js';

export const threeDSV1Styles = threeDSStyles;
