import { escapeHtml } from '../format.js';

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1.5rem;color:#1b1b1f;background:#fff}' +
  'main{max-width:28rem;margin:0 auto}h1{font-size:1.25rem;margin:0 0 .75rem}' +
  'label{display:block;font-weight:600;margin:.75rem 0 .25rem}' +
  'input,select{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;border:1px solid #767676;border-radius:4px}' +
  '.row{display:flex;gap:.75rem}.row>div{flex:1;display:flex;flex-direction:column;justify-content:flex-end}fieldset{border:0;padding:0;margin:.75rem 0}' +
  'fieldset label{font-weight:400;display:flex;gap:.5rem;align-items:center}fieldset input{width:auto}' +
  'button{font:inherit;padding:.6rem 1rem;margin:1rem .5rem 0 0;border-radius:4px;border:1px solid #1a4fd0;background:#1a4fd0;color:#fff;cursor:pointer}' +
  'button.secondary{background:#fff;color:#1a4fd0}.error{color:#b00020}.muted{color:#555;font-size:.875rem}' +
  'table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #ddd}';

/** A whole, small HTML document; every page of the sandbox is its own document. */
export function page(title: string, body: string, extraHead = ''): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style>${extraHead}</head>` +
    `<body><main>${body}</main></body></html>`
  );
}

export function hiddenInputs(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
}

/** A form that posts itself at once; the button shows only without script. */
export function autoPost(title: string, action: string, fields: Record<string, string>): string {
  return page(
    title,
    `<p>Returning to the merchant…</p><form method="POST" action="${escapeHtml(action)}">${hiddenInputs(fields)}` +
      `<noscript><button type="submit">Continue</button></noscript></form>` +
      `<script>document.forms[0].submit();</script>`,
  );
}

export function errorPage(message: string): string {
  return page(
    'Sandbox error',
    `<h1>Something is wrong with this request</h1><p class="error" role="alert">${escapeHtml(message)}</p>`,
  );
}
