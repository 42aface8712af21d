/** Test helpers: drive inputs the way a browser does (value + caret, then an InputEvent). */
export function typeInto(
  input: HTMLInputElement,
  value: string,
  caret = value.length,
  inputType = 'insertText',
): void {
  input.focus();
  input.value = value;
  input.setSelectionRange(caret, caret);
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType }));
}

export function blur(input: HTMLInputElement): void {
  input.dispatchEvent(new FocusEvent('blur'));
}

export function field(host: HTMLElement, id: string): HTMLInputElement {
  const input = host.shadowRoot?.querySelector<HTMLInputElement>(`#${id}`);
  if (!input) throw new Error(`no #${id}`);
  return input;
}
