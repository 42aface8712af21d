// React Router's production build behind Express, as its custom-server template does it, with the
// shopper's address (the socket's) handed to loaders and actions in the load context.
import { createRequestHandler } from '@react-router/express';
import express from 'express';

const app = express();
app.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y' }));
app.use(express.static('build/client', { maxAge: '1h' }));
app.use(
  createRequestHandler({
    build: () => import('./build/server/index.js'),
    getLoadContext: (req) => ({ clientAddress: req.socket.remoteAddress }),
  }),
);
const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
