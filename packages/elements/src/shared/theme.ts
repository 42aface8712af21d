import { css } from 'lit';

/**
 * The dark tokens, written once: `appearance="dark"`, `"auto"` on a page read as dark, and `"auto"`
 * before the page could be read when the system's setting is dark all take them.
 */
const dark = css`
  /* Fields darken whatever surface the merchant's page gives them, rather than paint their own navy. */
  --_bg: var(--pg-color-background, rgb(0 0 0 / 24%));
  --_surface: var(--pg-color-surface, #1f2937);
  --_text: var(--pg-color-text, #f3f4f6);
  --_muted: var(--pg-color-text-muted, #cbd5e1);
  --_border: var(--pg-color-border, #9ca3af);
  --_primary: var(--pg-color-primary, #93c5fd);
  --_on-primary: var(--pg-color-on-primary, #0b1220);
  --_error: var(--pg-color-error, #fca5a5);
  --_success: var(--pg-color-success, #86efac);
  --_focus: var(--pg-focus-ring, 0 0 0 2px var(--_bg), 0 0 0 4px #93c5fd);
  color-scheme: dark;
`;

/**
 * Theme tokens shared by every element. Each `--pg-*` property has a light default and a dark one
 * (`appearance="dark"`, or `"auto"` following the page's own background and colour scheme).
 */
export const themeStyles = css`
  :host {
    --_bg: var(--pg-color-background, #ffffff);
    --_surface: var(--pg-color-surface, #f6f7f9);
    --_text: var(--pg-color-text, #1b1f24);
    --_muted: var(--pg-color-text-muted, #4b5563);
    --_border: var(--pg-color-border, #8a94a3);
    --_primary: var(--pg-color-primary, #1d4ed8);
    --_on-primary: var(--pg-color-on-primary, #ffffff);
    --_error: var(--pg-color-error, #b42318);
    --_success: var(--pg-color-success, #067647);
    /* Solid, 3:1 or more against the field and the page (WCAG 1.4.11), with a gap in the field's colour. */
    --_focus: var(--pg-focus-ring, 0 0 0 2px var(--_bg), 0 0 0 4px #1d4ed8);
    --_radius: var(--pg-radius, 6px);
    --_gap: var(--pg-spacing, 0.75rem);
    --_font: var(--pg-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_font-size: var(--pg-font-size, 1rem);
    color-scheme: light;
    color: var(--_text);
    font-family: var(--_font);
    font-size: var(--_font-size);
    box-sizing: border-box;
  }
  :host([appearance='dark']),
  :host([appearance='auto'][data-scheme='dark']) {
    ${dark}
  }
  /* Before the page could be read (server-rendered, not yet hydrated): the system's setting. */
  @media (prefers-color-scheme: dark) {
    :host([appearance='auto']:not([data-scheme])) {
      ${dark}
    }
  }
  :host([hidden]) {
    display: none !important;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  button {
    font: inherit;
    min-height: 2.75rem;
    border-radius: var(--_radius);
    padding: 0.5rem 1rem;
    cursor: pointer;
    border: 1px solid var(--_primary);
    background: var(--_primary);
    color: var(--_on-primary);
  }
  button.secondary {
    background: transparent;
    color: var(--_primary);
  }
  button:disabled {
    opacity: 0.6;
    cursor: progress;
  }
  /* The ring is a shadow; forced colours drop shadows and paint the transparent outline instead. */
  button:focus-visible,
  input:focus-visible,
  .message:focus-visible {
    outline: 2px solid transparent;
    box-shadow: var(--_focus);
  }
  .spinner {
    flex: none;
    display: inline-block;
    width: 1em;
    height: 1em;
    border: 2px solid currentColor;
    border-right-color: transparent;
    border-radius: 50%;
    animation: pg-spin 0.8s linear infinite;
  }
  @keyframes pg-spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
    }
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;
