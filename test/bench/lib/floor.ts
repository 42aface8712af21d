/** The floor every size and speed figure is set beside: the smallest Lit element there is. */
export const FLOOR_SOURCE = `import { LitElement, html } from 'lit';
class FloorElement extends LitElement {
  static properties = { name: {} };
  constructor() { super(); this.name = 'floor'; }
  render() { return html\`<p>\${this.name}</p>\`; }
}
customElements.define('floor-element', FloorElement);
`;
