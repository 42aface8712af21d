import { threeDSStyles } from '../../internal/three-ds.styles.js';

export const threeDSV2Styles = threeDSStyles;
