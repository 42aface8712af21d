// The words the gateway's schemas, the sandbox, the middleware and the drop-in share, declared once as
// tables (card brands, payment methods) with their types derived from them; no zod, no Node, so the
// browser bundle imports them too, and gets only what it imports.
export * from './cards.js';
export * from './methods.js';
