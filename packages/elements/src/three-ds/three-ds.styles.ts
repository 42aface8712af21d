import { css } from 'lit';

export const threeDSStyles = css`
  :host {
    display: block;
    min-width: 0;
  }
  .status {
    color: var(--_muted);
    margin: 0;
    display: flex;
    gap: 0.625rem;
    align-items: center;
  }
  .method {
    position: absolute;
    width: 1px;
    height: 1px;
    border: 0;
    opacity: 0;
    pointer-events: none;
  }
  .challenge {
    display: grid;
    gap: 0.25rem;
    width: fit-content;
    max-width: 100%;
    margin-inline: auto;
    outline: none;
    /* Scrolled to (on a phone, zoomed in) with a little room above the close control. */
    scroll-margin-top: 0.5rem;
  }
  /* One close control above the frame's corner; the bank's page has the title and its own buttons. */
  .close {
    grid-area: 1 / 1;
    justify-self: end;
    min-height: 0;
    /* A tap target of 44 px (WCAG 2.5.5). */
    width: 2.75rem;
    height: 2.75rem;
    padding: 0;
    display: grid;
    place-items: center;
    border-radius: 50%;
    border: 1px solid var(--_border);
    background: transparent;
    color: var(--_text);
  }
  /* Beside the close control: the warning before the challenge times out (WCAG 2.2.1) and "More time". */
  .timeout {
    grid-area: 1 / 1;
    margin-inline-end: 3.25rem;
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .timeout p {
    margin: 0;
  }
  iframe[part='frame'],
  .loading {
    grid-area: 2 / 1;
  }
  /* Over the empty frame until the bank's page arrives (seconds on a slow network). */
  .loading {
    z-index: 1;
    place-self: start center;
    margin-top: 4rem;
    font-size: 2rem;
    /* On the frame's white, whatever the appearance. */
    color: #4b5563;
  }
  iframe[part='frame'] {
    display: block;
    max-width: 100%;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: #fff;
  }
  /* The whole screen but the close control: a bank's page fits it at 200% zoom, and at 400% it scrolls inside. */
  .challenge[data-window-size='05'] {
    width: 100%;
    height: var(--pg-challenge-full-height, calc(100vh - 1rem));
    /* The frame fills its row and never overflows it (an iframe's 150 px would run past the checkout). */
    grid-template-rows: auto minmax(0, 1fr);
  }
  .challenge[data-window-size='05'] iframe[part='frame'] {
    height: 100%;
    min-height: 0;
  }
`;
