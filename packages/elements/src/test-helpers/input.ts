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

/** A card expiry two years ahead, as the expiry field takes it (`MMYY`). */
export const futureExpiry = `08${String(new Date().getFullYear() + 2).slice(2)}`;

/** Types a whole card into a `<pg-card-form>` (holder Jo Soap, expiry two years ahead) and waits for it. */
export async function fillCard(
  form: HTMLElement & { updateComplete: Promise<boolean> },
  number: string,
  cvv = '123',
): Promise<void> {
  typeInto(field(form, 'number'), number);
  typeInto(field(form, 'holder'), 'Jo Soap');
  typeInto(field(form, 'expiry'), futureExpiry);
  typeInto(field(form, 'cvv'), cvv);
  await form.updateComplete;
}
