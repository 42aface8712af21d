// `node --import ./test-support/node-unit.mjs --test <files>`: runs the elements' pure unit tests (written
// for the browser runner: mocha's describe/it, `expect` from @open-wc/testing) in Node, for test:fast.
// Only tests that touch no DOM belong there: `expect` is chai's, and nothing else of @open-wc/testing is.
import { register } from 'node:module';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';

Object.assign(globalThis, { describe, it, before, after, beforeEach, afterEach });
register('./node-unit-hooks.mjs', import.meta.url);
