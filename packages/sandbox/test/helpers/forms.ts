/** Hidden inputs of an HTML page, the way a browser would submit them. */
export function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    out[m[1]!] = m[2]!.replace(/&#(\d+);/g, (_s, code: string) =>
      String.fromCharCode(Number(code)),
    );
  }
  return out;
}

export async function postForm(
  url: string,
  fields: Record<string, string>,
  accept = 'text/html',
): Promise<{ status: number; text: string; location: string | null }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
}

/** The value attribute of the method fragment's threeDSMethodData input and its form's action. */
export function methodForm(tdsMethodContent: string): { action: string; data: string } {
  const action = /action="([^"]+)"/.exec(tdsMethodContent)?.[1] ?? '';
  const data = /name="threeDSMethodData" value="([^"]+)"/.exec(tdsMethodContent)?.[1] ?? '';
  return { action, data };
}

/** Pays on a sandbox hosted page with a test card, the way the shopper's browser posts the form. */
export function payOnPage(
  redirectUrl: string,
  number: string,
  expiryYear: number,
): Promise<{ status: number; text: string; location: string | null }> {
  return postForm(redirectUrl, {
    number,
    cardHolder: 'Test Shopper',
    expiryMonth: '12',
    expiryYear: String(expiryYear),
    cvv: '123',
    action: 'pay',
  });
}
