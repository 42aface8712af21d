import { noChange } from 'lit';
import { Directive, directive, type PropertyPart } from 'lit/directive.js';
import { setCommittedValue } from 'lit/directive-helpers.js';

/**
 * Lit's `live` for property bindings, the only ones the card form gives it (`.value`, `.checked`): the
 * property is set when it differs from what the element holds now, not from what was last rendered,
 * since the shopper (and the formatting) change the input between renders. Lit's own also handles
 * attribute bindings and throws for the rest; that is bytes every script-tag page would carry for nothing.
 */
class LiveProperty extends Directive {
  render(value: unknown): unknown {
    return value;
  }

  override update(part: PropertyPart, [value]: [unknown]): unknown {
    if (value === (part.element as unknown as Record<string, unknown>)[part.name]) return noChange;
    // Forget the last rendered value, so the binding sets this one even when it is the same.
    setCommittedValue(part);
    return value;
  }
}

export const live = directive(LiveProperty);
