import { css } from 'lit';

export const checkoutStyles = css`
  :host {
    display: block;
    min-width: 0;
    max-width: var(--pg-max-width, 40rem);
  }
  .base {
    display: grid;
    gap: var(--_gap);
    padding: var(--pg-padding, 0);
    /* The merchant's own surface shows through unless they give the drop-in one. */
    background: var(--pg-color-background, transparent);
    color: var(--_text);
    border-radius: var(--_radius);
  }
  .message {
    margin: 0;
    padding: 0.75rem 1rem;
    border-radius: var(--_radius);
    border: 1px solid currentColor;
    background: var(--_surface);
  }
  /* Stays in the tree while empty so screen readers keep announcing it. */
  .message:empty {
    padding: 0;
    border: 0;
  }
  .message:not(:empty) {
    display: flex;
    gap: 0.625rem;
    /* The spinner sits on the first line's baseline, however many lines the sentence takes. */
    align-items: baseline;
    margin-block-end: 0.25rem;
  }
  /* "Reference: …" goes to the next line whole rather than split after its label. */
  .message span span {
    display: inline-block;
  }
  .message[data-tone='success'] {
    color: var(--_success);
  }
  .message[data-tone='error'] {
    color: var(--_error);
  }
  .message[data-tone='info'] {
    color: var(--_text);
  }
  .methods {
    display: grid;
    gap: 0.5rem;
  }
  .methods button {
    width: 100%;
  }
`;
