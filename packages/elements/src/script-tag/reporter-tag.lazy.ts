// The script-tag reporter (dist/pg-checkout.reporter.js): reports to the endpoint its tag names.
import { watchPageIntegrity } from '../reporter.js';

const endpoint = (document.currentScript as HTMLScriptElement | null)?.dataset.endpoint;
if (endpoint) watchPageIntegrity(endpoint);
