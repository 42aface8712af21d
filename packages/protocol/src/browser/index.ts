// The Browser API (docs/contracts.md), declared once for the middleware and the components. Types
// only: importing this module adds nothing to a bundle.
export type * from './answers.js';
export type * from './codes.js';
export type * from './requests.js';
export type * from './routes.js';
