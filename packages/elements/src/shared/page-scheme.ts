import type { ReactiveController, ReactiveControllerHost } from 'lit';

type Host = ReactiveControllerHost & HTMLElement & { appearance: string };

/** The parent in the rendered tree: through slots and out of shadow roots. */
const parentOf = (el: Element): Element | null =>
  el.assignedSlot ?? el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null);

/** Relative luminance (WCAG) of `rgb(...)`/`rgba(...)`, or undefined when it is mostly see-through or unreadable. */
function luminance(colour: string): number | undefined {
  const [r, g, b, a = 1] = (colour.match(/[\d.]+/g) ?? []).map(Number);
  if (!colour.startsWith('rgb') || b === undefined || a < 0.5) return undefined;
  const lin = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b);
}

/**
 * Whether the page behind `el` is dark: the first solid background up the tree (dark when white text
 * reads better on it than black), else the canvas, which follows the root's `color-scheme`.
 */
export function pageIsDark(el: Element): boolean {
  for (let node = parentOf(el); node; node = parentOf(node)) {
    const l = luminance(getComputedStyle(node).backgroundColor);
    if (l !== undefined) return l < 0.179;
  }
  const scheme = getComputedStyle(document.documentElement).colorScheme;
  const system = matchMedia('(prefers-color-scheme: dark)').matches;
  return /dark/.test(scheme) && (system || !/light/.test(scheme));
}

/**
 * `appearance="auto"` reads the page the element sits on, not only the system setting: a light page gets
 * the light form whatever the system says. Sets `data-scheme` on the host for the theme's CSS.
 */
export class PageSchemeController implements ReactiveController {
  private schemeSeen = '';
  private readonly schemeMedia =
    typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
  private readonly onSchemeChange = (): void => this.readScheme();

  constructor(private readonly host: Host) {
    host.addController(this);
  }

  hostConnected(): void {
    this.schemeMedia?.addEventListener('change', this.onSchemeChange);
    this.readScheme();
  }

  hostDisconnected(): void {
    this.schemeMedia?.removeEventListener('change', this.onSchemeChange);
  }

  hostUpdate(): void {
    if (this.host.appearance !== this.schemeSeen) this.readScheme();
  }

  private readScheme(): void {
    const host = this.host;
    this.schemeSeen = host.appearance;
    if (host.appearance === 'auto' && host.isConnected)
      host.setAttribute('data-scheme', pageIsDark(host) ? 'dark' : 'light');
    else host.removeAttribute('data-scheme');
  }
}
