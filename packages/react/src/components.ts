/**
 * React components over the pg-checkout web components: typed properties, `ref` to the element and
 * `onApproved`, `onDeclined`, … props for the `pg-*` events. Importing this module defines the tags.
 * The browser entry (index.ts) and the server one (server.ts) build them here, the server's with the
 * elements' markup rendered inside (declarative shadow DOM).
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

/** On the server: the inner HTML of `tag`'s declarative shadow root for these element properties. */
export type ShadowRenderer = (tag: string, properties: Record<string, unknown>) => string;

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
  'pg-threeds-checking': true,
  'pg-threeds-complete': true,
} as const satisfies Record<keyof Pg3dsV2Events & keyof Pg3dsV1Events, true>;

/**
 * The four components; with `renderShadow` (on the server) each renders its element with its attributes
 * and its markup in a declarative shadow root, the same element the browser's component then hydrates.
 */
export function pgComponents(renderShadow?: ShadowRenderer) {
  /** `<pg-checkout>`: the drop-in (card form, 3-D Secure, declines, redirect methods). */
  const PgCheckout = createComponent({
    tagName: 'pg-checkout',
    elementClass: PgCheckoutElement,
    react: React,
    events: reactEvents<PgCheckoutEvents>({
      'pg-status-change': true,
      'pg-submit': true,
      'pg-threeds-start': true,
      'pg-threeds-checking': true,
      'pg-threeds-complete': true,
      'pg-approved': true,
      'pg-pending': true,
      'pg-declined': true,
      'pg-failed': true,
      'pg-redirect': true,
    } satisfies Record<keyof PgCheckoutEvents, true>),
  });

  /** `<pg-card-form>`: the card fields alone. */
  const PgCardForm = createComponent({
    tagName: 'pg-card-form',
    elementClass: PgCardFormElement,
    react: React,
    events: reactEvents<PgCardFormEvents>({ 'pg-submit': true } satisfies Record<
      keyof PgCardFormEvents,
      true
    >),
  });

  /** `<pg-3ds-v2>`: 3-D Secure v2 (method step and challenge) for a payment you started. */
  const Pg3dsV2 = createComponent({
    tagName: 'pg-3ds-v2',
    elementClass: Pg3dsV2Element,
    react: React,
    events: reactEvents<Pg3dsV2Events>(threeDSEvents),
  });

  /** `<pg-3ds-v1>`: 3-D Secure v1 for a payment you started. */
  const Pg3dsV1 = createComponent({
    tagName: 'pg-3ds-v1',
    elementClass: Pg3dsV1Element,
    react: React,
    events: reactEvents<Pg3dsV1Events>(threeDSEvents),
  });

  if (!renderShadow) return { PgCheckout, PgCardForm, Pg3dsV2, Pg3dsV1 };
  return {
    PgCheckout: onServer(PgCheckout, 'pg-checkout', PgCheckoutElement, renderShadow),
    PgCardForm: onServer(PgCardForm, 'pg-card-form', PgCardFormElement, renderShadow),
    Pg3dsV2: onServer(Pg3dsV2, 'pg-3ds-v2', Pg3dsV2Element, renderShadow),
    Pg3dsV1: onServer(Pg3dsV1, 'pg-3ds-v1', Pg3dsV1Element, renderShadow),
  };
}

/** What Lit keeps of a declared property (`static properties`). */
interface PropertyOptions {
  attribute?: boolean | string;
}

/**
 * The server's version of a component: the element with the attributes its primitive properties have
 * (so that it upgrades in the browser with the values it was rendered with, before React sets its
 * properties), the other React props, and a `<template shadowrootmode="open">` with its markup. The
 * browser's component renders the element without children: the parser turned the template into the
 * shadow root, so React finds the same tree when it hydrates.
 */
function onServer<C>(
  component: C,
  tag: string,
  element:
    | typeof PgCheckoutElement
    | typeof PgCardFormElement
    | typeof Pg3dsV2Element
    | typeof Pg3dsV1Element,
  renderShadow: ShadowRenderer,
): C {
  const declared = (element as unknown as { elementProperties: Map<string, PropertyOptions> })
    .elementProperties;
  const server = React.forwardRef<HTMLElement, Record<string, unknown>>((props, ref) => {
    const attributes: Record<string, unknown> = { ref, suppressHydrationWarning: true };
    const properties: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(props)) {
      // Event props (`onApproved`) are the browser's business; React writes no function either.
      if (key === 'children' || typeof value === 'function') continue;
      const options = declared.get(key);
      if (!options) {
        attributes[key === 'className' ? 'class' : key] = value;
        continue;
      }
      properties[key] = value;
      if (options.attribute === false || value === undefined || value === null || value === false)
        continue;
      if (typeof value === 'object' || typeof value === 'function') continue;
      const name = typeof options.attribute === 'string' ? options.attribute : key.toLowerCase();
      attributes[name] = value === true ? '' : String(value);
    }
    return React.createElement(
      tag,
      attributes,
      React.createElement('template', {
        shadowrootmode: 'open',
        dangerouslySetInnerHTML: { __html: renderShadow(tag, properties) },
      }),
      props.children as React.ReactNode,
    );
  });
  server.displayName = (component as { displayName?: string }).displayName ?? tag;
  return server as unknown as C;
}
