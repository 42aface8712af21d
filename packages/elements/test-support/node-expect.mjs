// What a pure unit test takes from @open-wc/testing when it runs in Node (node-unit.mjs): chai's expect,
// the same build @open-wc/testing hands the browser, and waitUntil as @open-wc/testing-helpers has it
// (its module is not exported on its own, and the package's entry needs a DOM).
export { expect } from '@esm-bundle/chai/esm/chai.js';

/** Resolves once `predicate` is true, polled every `interval` ms; rejects with `message` after `timeout` ms. */
export function waitUntil(predicate, message, { interval = 50, timeout = 1000 } = {}) {
  return new Promise((resolve, reject) => {
    let poll;
    const limit = setTimeout(() => {
      clearTimeout(poll);
      reject(new Error(message ? `Timeout: ${message}` : `waitUntil timed out after ${timeout}ms`));
    }, timeout);
    const next = async () => {
      try {
        if (await predicate()) {
          clearTimeout(limit);
          resolve();
        } else poll = setTimeout(next, interval);
      } catch (error) {
        clearTimeout(limit);
        reject(error);
      }
    };
    void next();
  });
}
