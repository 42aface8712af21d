/** What a Trusted Types policy offers us: HTML from a string. */
interface HtmlPolicy {
  createHTML(html: string): unknown;
}

let policy: HtmlPolicy | null | undefined;

/**
 * The bank's 3-D Secure method content as the `srcdoc` of its frame: under `require-trusted-types-for
 * 'script'` through the policy `pg-checkout` (paymentPageHeaders lists it in `trusted-types`), since
 * `srcdoc` takes only TrustedHTML there. The content is the gateway's, rendered unmodified as it asks;
 * a policy of its own for this one string, never a page-wide default policy.
 * Without Trusted Types, or when the page's CSP does not allow the name, the string as it is.
 */
export function methodHtml(html: string): string {
  if (policy === undefined) {
    const types = (
      globalThis as { trustedTypes?: { createPolicy(name: string, rules: HtmlPolicy): HtmlPolicy } }
    ).trustedTypes;
    try {
      policy = types?.createPolicy('pg-checkout', { createHTML: (text: string) => text }) ?? null;
    } catch {
      // A name the page's `trusted-types` does not list: the frame is refused, as the browser will say.
      policy = null;
    }
  }
  // A TrustedHTML is what `srcdoc` takes; Lit sets it as a property, untouched.
  return (policy?.createHTML(html) ?? html) as string;
}
