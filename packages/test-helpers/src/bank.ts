/**
 * What a shopper's browser and the bank do around our 3-D Secure pages, as plain HTTP against the
 * sandbox: the method step, the challenge answer, and the bank's post back to us.
 */
// The sandbox's answers are read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = any;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Posts a form the way a browser would; `json` asks the sandbox's ACS for its next hop as JSON. */
async function postForm(
  url: string,
  fields: Record<string, string>,
  json = false,
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...FORM, ...(json ? { accept: 'application/json' } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
}

/** What the method iframe's script does: submit the bank's form with browser data. */
export async function runMethodStep(methodUrl: string): Promise<string> {
  const html = await (await fetch(methodUrl)).text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  if (!action) throw new Error('method content has no form');
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input[^>]*name="([^"]+)"(?:[^>]*value="([^"]*)")?/g))
    fields[m[1]!] = (m[2] ?? '').replace(/&amp;/g, '&');
  fields.browserScreen = '1280x800';
  const response = await postForm(action, fields);
  await response.arrayBuffer();
  return html;
}

/** The shopper at the bank's challenge page: what the bank would post back, and where. */
export async function bankAnswer(
  threeDS: Answer,
  otp: string,
): Promise<{ action: string; fields: Record<string, string> }> {
  let hop: { action: string; fields: Record<string, string> };
  if (threeDS.version === 1) {
    await (
      await postForm(threeDS.acsUrl, {
        PaReq: threeDS.paReq,
        MD: threeDS.md,
        TermUrl: threeDS.termUrl,
      })
    ).arrayBuffer();
    hop = (await (
      await postForm(
        `${threeDS.acsUrl}/answer`,
        { MD: threeDS.md, TermUrl: threeDS.termUrl, otp, action: 'submit' },
        true,
      )
    ).json()) as typeof hop;
  } else {
    await (
      await postForm(threeDS.acsUrl, {
        creq: threeDS.creq,
        threeDSSessionData: threeDS.threeDSSessionData,
      })
    ).arrayBuffer();
    hop = (await (
      await postForm(
        `${threeDS.acsUrl}/answer`,
        {
          acsTransID: threeDS.transactionId,
          threeDSSessionData: threeDS.threeDSSessionData,
          otp,
          action: 'submit',
        },
        true,
      )
    ).json()) as typeof hop;
  }
  return hop;
}

/** The shopper at the bank's challenge page, then the bank posting the result to our callback or TermUrl. */
export async function completeChallenge(
  threeDS: Answer,
  otp: string,
): Promise<{ status: number; html: string; csp: string | null; url: string }> {
  const hop = await bankAnswer(threeDS, otp);
  const response = await postForm(hop.action, hop.fields);
  return {
    status: response.status,
    html: await response.text(),
    csp: response.headers.get('content-security-policy'),
    url: hop.action,
  };
}
