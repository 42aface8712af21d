import { svg, type SVGTemplateResult } from 'lit';
import type { CardType } from '../api/types.js';

/** Small inline brand marks (32x20), drawn from the brands' own colours; decorative, named by their holder. */
export const brandMarks: Record<CardType, SVGTemplateResult> = {
  visa: svg`<rect width="32" height="20" rx="3" fill="#1434cb"/><text x="16" y="14" fill="#fff" font-family="Arial,sans-serif" font-size="9.5" font-style="italic" font-weight="700" text-anchor="middle">VISA</text>`,
  mastercard: svg`<rect width="32" height="20" rx="3" fill="#252525"/><circle cx="12.5" cy="10" r="6" fill="#eb001b"/><circle cx="19.5" cy="10" r="6" fill="#f79e1b"/><path d="M16 5.2a6 6 0 0 1 0 9.6a6 6 0 0 1 0-9.6z" fill="#ff5f00"/>`,
  amex: svg`<rect width="32" height="20" rx="3" fill="#016fd0"/><text x="16" y="13.5" fill="#fff" font-family="Arial,sans-serif" font-size="8" font-weight="700" text-anchor="middle">AMEX</text>`,
  diners: svg`<rect width="32" height="20" rx="3" fill="#fff" stroke="#0079be"/><circle cx="13.5" cy="10" r="5.5" fill="none" stroke="#0079be" stroke-width="1.6"/><circle cx="18.5" cy="10" r="5.5" fill="none" stroke="#0079be" stroke-width="1.6"/>`,
};

export const acceptedBrands: CardType[] = ['visa', 'mastercard', 'amex', 'diners'];
