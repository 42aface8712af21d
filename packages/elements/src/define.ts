/**
 * Registers `constructor` as `tag` unless the tag is taken already: merchants load our script twice
 * (a bundle and a script tag), and a second `define` would throw.
 */
export function defineElement(tag: string, constructor: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, constructor);
}
