// A NestJS shop (Express adapter) as a new developer writes it from the READMEs: the sandbox in-process,
// the middleware on /checkout, the script-tag page from STATIC_DIR. The test copies this file to
// main.cts (compiled to CommonJS: `require('@pg-checkout/express')`) and main.mts (ESM), so it uses
// neither top-level await nor import.meta. Prints {"url","sandbox"} once it listens; stops when stdin
// closes.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createCheckout, MemoryStore } from '@pg-checkout/express';
import { createSandbox } from '@pg-checkout/sandbox';

/** Orders the middleware reported paid, for the test to compare with what the page showed. */
const paid: { orderReference: string; reference: string }[] = [];

@Controller()
class PaidController {
  @Get('paid')
  list() {
    return paid;
  }
}

@Module({ controllers: [PaidController] })
class ShopModule {}

/** A free port on 127.0.0.1: the middleware's publicUrl is set before Nest listens. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

async function main(): Promise<void> {
  const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const app = await NestFactory.create<NestExpressApplication>(ShopModule, { logger: ['error'] });
  app.use(
    '/checkout',
    createCheckout({
      gateway: { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
      publicUrl: `${url}/checkout`,
      store: new MemoryStore(),
      resolveOrder: () => ({ amount: 12_345, currency: 'ZAR', reference: `order-${randomUUID()}` }),
      onPaymentCompleted: ({ orderReference, reference }) => {
        paid.push({ orderReference, reference });
      },
    }),
  );
  // The script-tag file and the two it loads from beside itself.
  const local = createRequire(join(process.cwd(), 'package.json'));
  const script = local.resolve('@pg-checkout/elements/pg-checkout.js');
  app.useStaticAssets(dirname(script), { index: false });
  app.useStaticAssets(resolve(process.env.STATIC_DIR ?? 'public'));
  await app.listen(port, '127.0.0.1');

  console.log(JSON.stringify({ url, sandbox: sandbox.url }));
  const stop = (): void => {
    void Promise.all([app.close(), sandbox.close()]).then(() => process.exit(0));
  };
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  setTimeout(stop, 15 * 60_000).unref();
}

void main();
