/**
 * Registers `constructor` as `tag` unless the tag is taken already: merchants load our script twice
 * (a bundle and a script tag), and a second `define` would throw. In the script-tag file the 3-D Secure
 * classes are not there yet (pg-checkout.3ds.js defines their tags when it loads): nothing to register.
 */
export function defineElement(tag: string, constructor: CustomElementConstructor): void {
  if (constructor && !customElements.get(tag)) customElements.define(tag, constructor);
}
