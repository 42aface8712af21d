export default defineNuxtConfig({
  compatibilityDate: '2025-07-15',
  devtools: { enabled: false },
  telemetry: false,
  // <pg-checkout> and its parts are custom elements, not Vue components.
  vue: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('pg-') } },
});
