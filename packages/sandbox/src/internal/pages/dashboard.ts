import { escapeHtml } from '../format.js';
import { TEST_CARDS } from '../test-cards.js';
import { page } from './html.js';

/** The sandbox's root page: recent transactions, their 3-D Secure timeline and webhook attempts, polled. */
export function dashboardPage(token: string): string {
  const script = `<script>
(function(){
var body=document.getElementById('rows'),info=document.getElementById('info');
function esc(s){return String(s==null?'':s).replace(/[&<>"']/g,function(c){return '&#'+c.charCodeAt(0)+';';});}
function t(ms){return ms?new Date(ms).toISOString().replace('T',' ').slice(0,19):'';}
function tds(x){if(!x)return '';return 'v'+x.version+' '+esc(x.step)+(x.methodReceivedAt?'<br>method '+t(x.methodReceivedAt):'')+
(x.step2ConfirmAt?'<br>step 2 '+t(x.step2ConfirmAt):'')+(x.challengeShownAt?'<br>challenge '+t(x.challengeShownAt):'')+
(x.authResult?'<br>result '+esc(x.authResult):'');}
function hooks(w){return w.map(function(d){return esc(d.event)+' '+esc(d.state)+' ('+d.attempts.length+' attempts'+
(d.attempts.length?', last '+esc(d.attempts[d.attempts.length-1].status||d.attempts[d.attempts.length-1].error):'')+')';}).join('<br>');}
function load(){fetch('/_sandbox/transactions?limit=100').then(function(r){return r.json();}).then(function(j){
info.textContent=j.total+' transactions; sandbox time '+t(j.now);
body.innerHTML=j.transactions.map(function(x){return '<tr><td>'+esc(x.reference)+'</td><td>'+esc(x.merchantReference)+'</td><td>'+
esc(x.kind)+'</td><td>'+esc(x.status)+'</td><td>'+(x.amount/100).toFixed(2)+' '+esc(x.currency)+'</td><td>'+
esc(x.card?x.card.number:'')+'</td><td>'+tds(x.threeDS)+'</td><td>'+hooks(x.webhooks)+'</td><td>'+t(x.createdAt)+'</td></tr>';}).join('');
}).catch(function(){info.textContent='Sandbox not reachable';});}
load();setInterval(load,2000);
})();
</script>`;
  return page(
    'pg-sandbox dashboard',
    `<h1>pg-sandbox</h1><p class="muted">Token <code>${token.replace(/[<>&"']/g, '')}</code>. ` +
      `Test cards are listed in the package README. Refreshes every 2 seconds.</p>` +
      `<p id="info" role="status" aria-live="polite"></p>` +
      `<table><thead><tr><th>Reference</th><th>Merchant ref.</th><th>Kind</th><th>Status</th><th>Amount</th><th>Card</th>` +
      `<th>3-D Secure</th><th>Webhooks</th><th>Created</th></tr></thead><tbody id="rows"></tbody></table>${script}`,
  ).replace('main{max-width:28rem', 'main{max-width:80rem');
}

/** The test-card table of DESIGN.md as a page, which the CLI banner points to. */
export function testCardsPage(): string {
  const rows = TEST_CARDS.map(
    (c) =>
      `<tr><td><code>${c.number}</code></td><td>${c.type}</td><td>${escapeHtml(c.description)}</td></tr>`,
  ).join('');
  return page(
    'pg-sandbox test cards',
    `<h1>Test cards</h1><p>Any future expiry, any cvv of the right length (4 digits for amex), any holder name. ` +
      `3-D Secure pages take 1234 or test123. Any other Luhn-valid number is approved by its prefix.</p>` +
      `<table><thead><tr><th>Number</th><th>Brand</th><th>Behaviour on v2 create</th></tr></thead><tbody>${rows}</tbody></table>`,
  ).replace('main{max-width:28rem', 'main{max-width:60rem');
}
