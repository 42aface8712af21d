import type { LitElement } from 'lit';
import { PageSchemeController } from './page-scheme.js';
import { ServerStylesController } from './server-styles.js';

/**
 * The controllers of an element's look, the same in all four: the server's styles adopted once it
 * hydrates, and `appearance="auto"` following the page's own colours.
 */
export const lookControllers = (host: LitElement & { appearance: string }) =>
  [new ServerStylesController(host), new PageSchemeController(host)] as const;
