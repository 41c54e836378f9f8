// Baseline B of docs/performance.md: a bare Fastify route returning the measured user's
// menu, parsed once and serialized on every request, in its own process. It compresses its
// answer with the server's own settings (decision 0059), as the menu is for the browser.
//   node --import tsx bench/baseline.ts <menu.json> <port>
import Fastify from 'fastify';
import { readFile } from 'node:fs/promises';
import { compressionPlugin } from '../src/plugins/compression.ts';

async function main() {
  const [file, port] = process.argv.slice(2);
  if (!file || !port) throw new Error('usage: baseline.ts <menu.json> <port>');
  const menu: unknown = JSON.parse(await readFile(file, 'utf8'));
  const app = Fastify({ logger: false });
  await app.register(compressionPlugin);
  app.get('/api/consumer/menu', async () => menu);
  await app.listen({ port: Number(port), host: '127.0.0.1' });
  process.stdout.write('ready\n');
  process.on('SIGTERM', () => {
    void app.close().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`baseline: ${(error as Error).message}\n`);
  process.exit(1);
});
