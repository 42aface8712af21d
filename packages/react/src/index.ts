'use client';
// First, before anything imports lit: a drop-in the server rendered (server.ts) hydrates in place.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import { pgComponents } from './components.js';

export type * from './components.js';

/** The components as the browser runs them (the server's entry renders the same elements' markup). */
export const { PgCheckout, PgCardForm, Pg3dsV2, Pg3dsV1 } = pgComponents();
