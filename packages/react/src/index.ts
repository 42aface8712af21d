'use client';
/**
 * React components over the pg-checkout web components: typed properties, `ref` to the element and
 * `onApproved`, `onDeclined`, … props for the `pg-*` events. Importing this module defines the tags.
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { PgCheckout as PgCheckoutElement } from '@pg-checkout/elements/checkout.js';
import { PgCardForm as PgCardFormElement } from '@pg-checkout/elements/card-form.js';
import { Pg3dsV2 as Pg3dsV2Element } from '@pg-checkout/elements/3ds-v2.js';
import { Pg3dsV1 as Pg3dsV1Element } from '@pg-checkout/elements/3ds-v1.js';
import type {
  Pg3dsV1Events,
  Pg3dsV2Events,
  PgCardFormEvents,
  PgCheckoutEvents,
} from '@pg-checkout/elements/jsx';

export type * from '@pg-checkout/elements/jsx';

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${Camel<Tail>}`
  : Capitalize<S>;

/** `pg-status-change` -> `onStatusChange`, `pg-threeds-start` -> `onThreedsStart`. */
export type ReactEventProps<Events> = {
  [
    K in keyof Events & string as K extends `pg-${infer Name}` ? `on${Camel<Name>}` : never
  ]: EventName<Events[K] & Event>;
};

/**
 * The element's events, each named once: `satisfies` fails the build when the element gains or loses
 * an event (the event maps are generated from custom-elements.json).
 */
function reactEvents<Events>(names: Record<keyof Events, true>): ReactEventProps<Events> {
  return Object.fromEntries(
    Object.keys(names).map((name) => [
      `on${name
        .replace(/^pg-/, '')
        .replace(/(^|-)([a-z])/g, (_, __: string, c: string) => c.toUpperCase())}`,
      name,
    ]),
  ) as ReactEventProps<Events>;
}

const threeDSEvents = {
  'pg-threeds-start': true,
  'pg-threeds-complete': true,
} as const satisfies Record<keyof Pg3dsV2Events & keyof Pg3dsV1Events, true>;

/** `<pg-checkout>`: the drop-in (card form, 3-D Secure, declines, redirect methods). */
export const PgCheckout = createComponent({
  tagName: 'pg-checkout',
  elementClass: PgCheckoutElement,
  react: React,
  events: reactEvents<PgCheckoutEvents>({
    'pg-status-change': true,
    'pg-submit': true,
    'pg-threeds-start': true,
    'pg-threeds-complete': true,
    'pg-approved': true,
    'pg-pending': true,
    'pg-declined': true,
    'pg-failed': true,
    'pg-redirect': true,
  } satisfies Record<keyof PgCheckoutEvents, true>),
});

/** `<pg-card-form>`: the card fields alone. */
export const PgCardForm = createComponent({
  tagName: 'pg-card-form',
  elementClass: PgCardFormElement,
  react: React,
  events: reactEvents<PgCardFormEvents>({ 'pg-submit': true } satisfies Record<
    keyof PgCardFormEvents,
    true
  >),
});

/** `<pg-3ds-v2>`: 3-D Secure v2 (method step and challenge) for a payment you started. */
export const Pg3dsV2 = createComponent({
  tagName: 'pg-3ds-v2',
  elementClass: Pg3dsV2Element,
  react: React,
  events: reactEvents<Pg3dsV2Events>(threeDSEvents),
});

/** `<pg-3ds-v1>`: 3-D Secure v1 for a payment you started. */
export const Pg3dsV1 = createComponent({
  tagName: 'pg-3ds-v1',
  elementClass: Pg3dsV1Element,
  react: React,
  events: reactEvents<Pg3dsV1Events>(threeDSEvents),
});
