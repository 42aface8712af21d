import { svg, type SVGTemplateResult } from 'lit';
import type { CardType } from '@pg-checkout/protocol/vocabulary';

/**
 * Small inline brand marks (32x20), drawn from the brands' own colours; decorative, named by their holder.
 * The lettering is drawn with strokes, not set in a font: it looks the same whether or not the shopper's
 * system has Arial, and the form's first render has no font to find and no SVG text to lay out.
 */
export const brandMarks: Record<CardType, SVGTemplateResult> = {
  visa: svg`<rect width="32" height="20" rx="3" fill="#1434cb"/><path d="M7.7 7L9.9 13L12.1 7M13.5 7V13M18.4 7.9C17.9 7.1 15.2 6.8 15.2 8.6C15.2 10.3 18.6 9.6 18.6 11.5C18.6 13.3 15.8 13.1 15.1 12.2M19.9 13L22.1 7L24.3 13M20.7 11H23.5" transform="translate(2.1) skewX(-12)" fill="none" stroke="#fff" stroke-width="1.5" stroke-linejoin="round"/>`,
  mastercard: svg`<rect width="32" height="20" rx="3" fill="#252525"/><circle cx="12.5" cy="10" r="6" fill="#eb001b"/><circle cx="19.5" cy="10" r="6" fill="#f79e1b"/><path d="M16 5.2a6 6 0 0 1 0 9.6a6 6 0 0 1 0-9.6z" fill="#ff5f00"/>`,
  amex: svg`<rect width="32" height="20" rx="3" fill="#016fd0"/><path d="M6.6 13L8.6 7.5L10.6 13M7.4 11H9.8M11.8 13V7.5L14 11L16.2 7.5V13M20.4 7.5H17.4V13H20.4M17.4 10.25H20M21.6 7.5L25.4 13M25.4 7.5L21.6 13" fill="none" stroke="#fff" stroke-width="1.3" stroke-linejoin="round"/>`,
  diners: svg`<rect width="32" height="20" rx="3" fill="#fff" stroke="#0079be"/><circle cx="13.5" cy="10" r="5.5" fill="none" stroke="#0079be" stroke-width="1.6"/><circle cx="18.5" cy="10" r="5.5" fill="none" stroke="#0079be" stroke-width="1.6"/>`,
};

/**
 * The brands the gateway takes, one mark each: `brandMarks` is keyed by `CardType` (CARD_BRANDS), so a
 * brand without a mark, or a mark for no brand, does not compile. In the order the marks are drawn, the
 * order the `acceptedBrands` sentence names them in (not the gateway's).
 */
export const acceptedBrands = Object.keys(brandMarks) as CardType[];
