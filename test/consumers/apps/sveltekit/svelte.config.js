import adapter from '@sveltejs/adapter-node';

/** @type {import('@sveltejs/kit').Config} */
export default {
  kit: {
    adapter: adapter(),
    // The bank's 3-D Secure page posts its result as a form to /api/checkout/3ds/.../callback from
    // the bank's own origin, which no list can name in advance; SvelteKit refuses such posts before
    // any hook runs. The checkout checks those posts itself (signed session token); the app's own
    // form actions need their own CSRF defence (SameSite cookies, tokens).
    csrf: { trustedOrigins: ['*'] },
  },
};
