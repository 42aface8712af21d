import { css } from 'lit';

export const threeDSStyles = css`
  :host {
    display: block;
    min-width: 0;
  }
  .status {
    color: var(--_muted);
    margin: 0;
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
    gap: var(--_gap);
    justify-items: center;
    max-width: 100%;
  }
  .title {
    margin: 0;
    font-weight: 600;
  }
  iframe[part='frame'] {
    display: block;
    max-width: 100%;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: #fff;
  }
  .challenge[data-window-size='05'] {
    width: 100%;
    height: var(--pg-challenge-full-height, 80vh);
    grid-template-rows: auto 1fr auto;
  }
`;
