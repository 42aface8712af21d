/**
 * Submits a hidden form that POSTs `fields` to `action` into the frame named `target`. The form lives
 * only for the submission, in the element's own tree (so it also works inside a modal `<dialog>`).
 */
export function postIntoFrame(
  root: ShadowRoot | HTMLElement,
  action: string,
  target: string,
  fields: Record<string, string>,
): void {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = action;
  form.target = target;
  form.hidden = true;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  root.append(form);
  try {
    form.submit();
  } finally {
    form.remove();
  }
}
