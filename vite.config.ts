import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const web = fileURLToPath(new URL('./demo-server/web/', import.meta.url));

// Builds the demo shop's pages. The elements come from @pg-checkout/elements' ESM build (dist/),
// exactly as a merchant's Vite app would import them from npm.
export default defineConfig({
  root: web,
  base: '/',
  logLevel: 'warn',
  // Lit's production build, whatever NODE_ENV the shop runs with.
  resolve: { conditions: ['module', 'browser', 'production'] },
  build: {
    outDir: fileURLToPath(new URL('./demo-server/dist/web/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No inline module-preload polyfill: the pages run under a nonce-based CSP.
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        index: `${web}index.html`,
        esm: `${web}esm.html`,
        result: `${web}result.html`,
      },
    },
  },
});
