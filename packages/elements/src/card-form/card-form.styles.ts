import { css } from 'lit';

export const cardFormStyles = css`
  :host {
    display: block;
    min-width: 0;
  }
  form {
    display: grid;
    gap: var(--_gap);
  }
  .field {
    display: grid;
    /* Side-by-side fields of unequal height (a hint under one) keep their inputs level. */
    align-content: start;
    gap: 0.25rem;
    min-width: 0;
  }
  .row {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr));
    gap: var(--_gap);
  }
  label {
    font-weight: 600;
    font-size: 0.9375em;
  }
  .label-row {
    display: flex;
    align-items: end;
    justify-content: space-between;
    gap: 0.5rem;
    flex-wrap: wrap;
  }
  .brands {
    display: inline-flex;
    gap: 0.25rem;
  }
  .mark {
    display: inline-flex;
    transition: opacity 0.15s;
  }
  .mark[data-dim] {
    opacity: 0.3;
  }
  svg {
    display: block;
    border-radius: 3px;
  }
  .control {
    position: relative;
    display: flex;
    align-items: center;
    container-type: inline-size;
  }
  input[type='text'],
  input:not([type]) {
    width: 100%;
    min-width: 0;
    font: inherit;
    font-size: max(16px, 1em);
    min-height: 2.75rem;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    color: var(--_text);
  }
  input[aria-invalid='true'] {
    border-color: var(--_error);
    border-width: 2px;
  }
  /* Large text shrinks to the field rather than scroll out of sight: 19 characters take under 12em (16 px at least). */
  #number {
    padding-right: 3.25rem;
    letter-spacing: 0.02em;
    font-variant-numeric: tabular-nums;
    font-size: max(16px, min(1em, (100cqi - 4rem - 4px) / 12));
  }
  .brand {
    position: absolute;
    right: 0.625rem;
    display: inline-flex;
    pointer-events: none;
  }
  /* Too narrow for the number beside the mark (large text, a small phone): the marks above say the brand. */
  @container (max-width: 18em) {
    #number {
      padding-inline: 0.5rem;
      font-size: max(16px, min(1em, (100cqi - 1rem - 4px) / 12));
    }
    .brand {
      display: none;
    }
  }
  .hint {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .error {
    color: var(--_error);
    font-size: 0.875em;
  }
  /* No message, no space: the fields do not jump apart while nothing is wrong. */
  .error:empty {
    display: none;
  }
  fieldset {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.5rem 0.75rem;
    margin: 0;
    display: grid;
    gap: 0.5rem;
  }
  legend {
    font-weight: 600;
    padding: 0 0.25rem;
  }
  .choice {
    display: flex;
    gap: 0.5rem;
    align-items: center;
    font-weight: 400;
    min-height: 2.75rem;
  }
  .choice input {
    width: 1.25rem;
    height: 1.25rem;
    margin: 0;
    flex: none;
  }
  button[type='submit'] {
    width: 100%;
    font-weight: 600;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
  }
  button[type='submit']:disabled {
    cursor: progress;
  }
  button[aria-busy='true'] {
    opacity: 0.85;
  }
`;
