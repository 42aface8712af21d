import { adoptStyles, type LitElement, type ReactiveController } from 'lit';

/**
 * Styles a server-rendered element once it hydrates. Lit's hydration support keeps the declarative shadow
 * root as the server wrote it and adopts no stylesheet, so the server's inline `<style>` would be all the
 * element ever has, and a CSP without `'unsafe-inline'` (or the hashes of `serverStyleHashes()`) blocks
 * it for good. After the first update the element's own sheets are adopted (constructable stylesheets,
 * which `style-src` does not govern) and the server's `<style>` goes, so its rules do not apply twice.
 */
export class ServerStylesController implements ReactiveController {
  private done = false;

  constructor(private readonly host: LitElement) {
    host.addController(this);
  }

  hostUpdated(): void {
    if (this.done) return;
    this.done = true;
    const root = this.host.renderRoot;
    if (!(root instanceof ShadowRoot) || root.adoptedStyleSheets.length > 0) return;
    const server = [...root.children].filter((node) => node.localName === 'style');
    if (server.length === 0) return;
    adoptStyles(root, (this.host.constructor as typeof LitElement).elementStyles);
    for (const style of server) style.remove();
  }
}
